import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { newSigningSecret, signedHeaders, signerFor } from "./envelope";

describe("webhook signatures", () => {
  test("the headers of an attempt verify with the endpoint's secret and with no other", () => {
    const secret = newSigningSecret();
    // signerFor keeps one signer per sealed secret; here the "sealed" form is the secret itself.
    const signer = signerFor(`sealed:${secret}`, (s) => s.slice("sealed:".length));
    for (const payload of ['{"ok":true}', '{"name":"Zoë ✓ 日本"}', `{"x":"${"x".repeat(5000)}"}`]) {
      const at = Date.now();
      const headers = signedHeaders([signer], "evt_live", at, payload);
      expect(headers["webhook-id"]).toBe("evt_live");
      expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at / 1000)));
      expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
      expect(() => new Webhook(newSigningSecret()).verify(payload, headers)).toThrow();
    }
  });

  test("a signer is opened once per sealed secret", () => {
    let opened = 0;
    const secret = newSigningSecret();
    const open = (s: string) => {
      opened++;
      return s.slice("sealed2:".length);
    };
    signerFor(`sealed2:${secret}`, open);
    signerFor(`sealed2:${secret}`, open);
    expect(opened).toBe(1);
  });
});
