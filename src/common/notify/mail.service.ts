import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { AppConfig } from '../config/env';

/** What the pages say when e-mail is off. */
export const MAIL_OFF_HINT =
  'E-mail is not set up on this server: an administrator enables it with the SMTP_URL setting (and MAIL_FROM for the sender).';

export class MailNotConfiguredError extends Error {
  constructor() {
    super('SMTP_URL is not set: no e-mail can be sent.');
    this.name = 'MailNotConfiguredError';
  }
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Bounds of one SMTP exchange (connect, greeting, idle socket). */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * E-mail over SMTP_URL (nodemailer; STARTTLS when the server offers it on smtp://, TLS on
 * smtps://) from MAIL_FROM. Without SMTP_URL `configured` is false and `send` throws
 * {@link MailNotConfiguredError}: callers say which setting enables mail (MAIL_OFF_HINT).
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly transport: Transporter | undefined;

  constructor(private readonly config: AppConfig) {
    this.transport = config.SMTP_URL
      ? createTransport({
          url: config.SMTP_URL,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        })
      : undefined;
  }

  get configured(): boolean {
    return this.transport !== undefined;
  }

  /** Sends one message; rejects with the SMTP server's refusal or a connection error. */
  async send(message: MailMessage): Promise<void> {
    if (!this.transport) throw new MailNotConfiguredError();
    await this.transport.sendMail({
      from: this.config.MAIL_FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
