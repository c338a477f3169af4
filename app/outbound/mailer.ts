import type { Transporter } from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: over SMTP when SMTP_URL is set, otherwise to the log (so a reset link is still reachable locally). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer(smtpUrl: string | null, from: string, log: (msg: string) => void): Mailer {
  if (!smtpUrl) {
    return {
      async send(m) {
        log(`[mail] to=${m.to} subject="${m.subject}"\n${m.text}`);
      },
    };
  }
  // nodemailer is imported on the first mail: start-up does not pay for it.
  let transport: Promise<Transporter> | null = null;
  return {
    async send(m) {
      transport ??= import("nodemailer").then((n) => n.default.createTransport(smtpUrl));
      await (await transport).sendMail({ from, to: m.to, subject: m.subject, text: m.text });
    },
  };
}
