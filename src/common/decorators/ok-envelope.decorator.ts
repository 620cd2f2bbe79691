import { SetMetadata } from '@nestjs/common';

export const OK_ENVELOPE = 'beacon:okEnvelope';

/** Successful JSON bodies of this controller/route are returned as `{ ok: true, ...body }`. */
export const OkEnvelope = (): MethodDecorator & ClassDecorator => SetMetadata(OK_ENVELOPE, true);
