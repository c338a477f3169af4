import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { newSigningSecret, signedHeaders, signerOf } from "./envelope";

describe("webhook signatures", () => {
  test("match the Standard Webhooks reference library and verify with it", () => {
    const payloads = ['{"a":1}', "", '{"name":"Zoë ✓ 日本"}', "x".repeat(5000)];
    for (let i = 0; i < 20; i++) {
      const secret = newSigningSecret();
      const reference = new Webhook(secret);
      const at = 1_700_000_000_123 + i * 7_777;
      for (const payload of payloads) {
        const headers = signedHeaders(signerOf(secret), `evt_${i}`, at, payload);
        expect(headers["webhook-signature"]).toBe(reference.sign(`evt_${i}`, new Date(at), payload));
        expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at / 1000)));
      }
    }
    const secret = newSigningSecret();
    const now = Date.now();
    const headers = signedHeaders(signerOf(secret), "evt_live", now, '{"ok":true}');
    expect(new Webhook(secret).verify('{"ok":true}', headers)).toEqual({ ok: true });
    // Another secret's signature does not verify.
    expect(() => new Webhook(newSigningSecret()).verify('{"ok":true}', headers)).toThrow();
  });

  test("an empty secret is refused", () => {
    expect(() => signerOf("whsec_")).toThrow("empty");
  });
});
