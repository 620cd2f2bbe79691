import type { Request, Response } from 'express';
import type { DomainError } from '../errors/domain-error';

/**
 * Error pages for people: provided by the website module (when the application has one), used by
 * the global filter for errors raised before any route ran (a body parser's 413 on a website form),
 * so a browser gets the site's error page there too instead of the JSON body.
 */
export abstract class ErrorPages {
  /** Whether this request is answered with a page (a browser on a website path). */
  abstract wants(req: Request): boolean;
  /** Sends `err` as a page with its status and headers. */
  abstract send(req: Request, res: Response, err: DomainError): void;
}
