import { UseInterceptors } from '@nestjs/common';
import { OkEnvelopeInterceptor } from '../interceptors/ok-envelope.interceptor';

/**
 * Successful JSON bodies of this controller/route are returned as `{ ok: true, ...body }`: binds
 * {@link OkEnvelopeInterceptor} here, not globally, so every other route (the website's pages, the
 * PDF and accessibility endpoints, health) skips Nest's interceptor chain, which costs two
 * `AsyncResource.bind` per request (on Node 20 each also builds two deprecation wrappers, DEP0172).
 */
export const OkEnvelope = (): MethodDecorator & ClassDecorator => UseInterceptors(OkEnvelopeInterceptor);
