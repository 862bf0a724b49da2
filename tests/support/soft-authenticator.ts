import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A passkey authenticator in software, for HTTP tests: it makes ES256 credentials (attestation
 * "none") and signs challenges the way a platform authenticator does (WebAuthn Level 2, §6.1 and
 * §6.5). It stands for the outside world — the person's device — and the browser in front of it:
 * it writes the client data a browser at `origin` would. The console's own test uses Chromium's
 * virtual authenticator instead (e2e/console-passkeys.spec.ts).
 *
 * The CBOR it needs (a few maps of small integers, text and bytes) is written by hand below.
 */
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function cborHead(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  return Buffer.concat([cborHead(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id: string };
  user: { id: string };
}

export function softAuthenticator(origin: string) {
  const credentials: Credential[] = [];
  const rpIdHash = (rpId: string) => sha256(rpId);

  return {
    credentials,
    /** What `startRegistration` gives for these options: a new discoverable credential. */
    create(options: CreationOptions) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const coseKey = new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const id = randomBytes(16);
      const credentialLength = Buffer.alloc(2);
      credentialLength.writeUInt16BE(id.length);
      const authData = Buffer.concat([
        rpIdHash(options.rp.id),
        Buffer.from([0x45]), // user present, user verified, attested credential data
        Buffer.alloc(4), // sign count 0
        Buffer.alloc(16), // AAGUID
        credentialLength,
        id,
        cbor(coseKey),
      ]);
      const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
      credentials.push({ id, privateKey, userHandle: options.user.id, counter: 0 });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(
            cbor(
              new Map<string, Cbor>([
                ['fmt', 'none'],
                ['attStmt', new Map()],
                ['authData', authData],
              ]),
            ),
          ),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    /** What `startAuthentication` gives: `credential` (default the newest) signs the challenge. */
    get(options: { challenge: string; rpId: string }, credential = credentials.at(-1)!, clientOrigin = origin) {
      credential.counter++;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authData = Buffer.concat([rpIdHash(options.rpId), Buffer.from([0x05]), counter]);
      const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: clientOrigin, crossOrigin: false });
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
