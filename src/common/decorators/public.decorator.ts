import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'beacon:isPublic';

/** Opts a controller or route out of the API-key guard (which denies by default). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
