-- The day partitions of tracking_hits a flush writes and reads, locked in one round trip
-- (server/services/tracking/record-hits.ts): each (day, mode) pair in the order given, a day whose
-- partition does not exist skipped. Only the three modes the flushes use are accepted.
CREATE FUNCTION "lock_tracking_days"(days text[], modes text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	i int;
	partition text;
BEGIN
	FOR i IN 1 .. coalesce(array_length(days, 1), 0) LOOP
		IF modes[i] NOT IN ('row exclusive', 'share', 'share row exclusive') THEN
			RAISE EXCEPTION 'lock_tracking_days: no such mode %', modes[i];
		END IF;
		partition := 'tracking_hits_p' || replace(days[i], '-', '');
		IF to_regclass(partition) IS NOT NULL THEN
			EXECUTE format('LOCK TABLE %I IN %s MODE', partition, modes[i]);
		END IF;
	END LOOP;
END $$;
