// authenticator.mjs - a software passkey for the API tests of passkeys (docs/API.md,
// "Passkeys"): an ES256 key made with node:crypto that answers the server's options as
// a browser's navigator.credentials.create and .get would (attestation "none"), in the
// JSON the API takes, with a little CBOR writer for the attestation object and the key.
// Flags and the counter can be set, to test what the server must refuse.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

function head(major, n) {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

// CBOR of integers, byte strings (Buffers), text, arrays and maps (a Map keeps integer keys).
export function cbor(x) {
  if (Number.isInteger(x)) return x >= 0 ? head(0, x) : head(1, -1 - x);
  if (Buffer.isBuffer(x)) return Buffer.concat([head(2, x.length), x]);
  if (typeof x === 'string') return cbor.text(x);
  if (Array.isArray(x)) return Buffer.concat([head(4, x.length), ...x.map(cbor)]);
  const entries = x instanceof Map ? [...x] : Object.entries(x);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}
cbor.text = (s) => { const b = Buffer.from(s); return Buffer.concat([head(3, b.length), b]); };

const sha256 = (b) => createHash('sha256').update(b).digest();

export class Passkey {
  constructor({ rpId = 'localhost' } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    this.key = privateKey;
    this.rawId = randomBytes(16);
    this.id = this.rawId.toString('base64url');
    this.rpId = rpId;
    this.counter = 0;
    this.cose = cbor(new Map([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x, 'base64url')], [-3, Buffer.from(jwk.y, 'base64url')]]));
  }

  authData(flags, counter, attested) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts = [sha256(this.rpId), Buffer.from([flags]), count];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(this.rawId.length);
      parts.push(Buffer.alloc(16), len, this.rawId, this.cose);
    }
    return Buffer.concat(parts);
  }

  static clientData(type, challenge, origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  // POST /api/passkeys/register's body for the options of register-options.
  create(options, origin, { name = 'test key', flags = UP | UV | AT, type = 'webauthn.create' } = {}) {
    const cd = Passkey.clientData(type, options.challenge, origin);
    const att = cbor({ fmt: 'none', attStmt: {}, authData: this.authData(flags, this.counter, true) });
    return { name, client_data: cd.toString('base64url'), attestation_object: att.toString('base64url') };
  }

  // POST /api/passkeys/login's body for the options of login-options; the counter goes
  // up unless `counter` says what to send.
  get(options, origin, { flags = UP | UV, counter = ++this.counter } = {}) {
    const cd = Passkey.clientData('webauthn.get', options.challenge, origin);
    const ad = this.authData(flags, counter, false);
    const signature = sign('sha256', Buffer.concat([ad, sha256(cd)]), this.key);
    return {
      id: this.id,
      client_data: cd.toString('base64url'),
      authenticator_data: ad.toString('base64url'),
      signature: signature.toString('base64url'),
    };
  }
}
