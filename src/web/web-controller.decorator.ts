import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { Public } from '../common/decorators/public.decorator';
import { WebExceptionFilter } from './web-exception.filter';
import { WebGuard } from './web.guard';

/**
 * A website controller: out of the API-key guard (pages use sessions), behind the website's own
 * guard (deny by default: a session is required unless a handler is @Anonymous()), with errors as
 * readable pages.
 */
export const WebController = (path = ''): ClassDecorator =>
  applyDecorators(Controller(path), Public(), UseGuards(WebGuard), UseFilters(WebExceptionFilter));
