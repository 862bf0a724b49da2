/** A passkey challenge works once, for this long. Pure: the API's schemas (and so the console) import it. */
export const CHALLENGE_MINUTES = 5;
