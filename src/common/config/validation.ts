import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';

function firstProblem(errors: ValidationError[], path = ''): { field: string; message: string } | undefined {
  for (const e of errors) {
    const field = path ? `${path}.${e.property}` : e.property;
    const constraints = Object.values(e.constraints ?? {});
    if (constraints.length > 0) {
      const message = constraints[0].replace(/^property (\S+) should not exist$/, 'unknown field $1');
      return { field, message };
    }
    const nested = firstProblem(e.children ?? [], field);
    if (nested) return nested;
  }
  return undefined;
}

/** The global ValidationPipe: whitelist, forbid unknown fields, transform; 400 bad_request naming the field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) => {
      const problem = firstProblem(errors) ?? { field: 'body', message: 'invalid request' };
      return DomainError.badRequest(`Invalid ${problem.field}: ${problem.message}.`, problem.field);
    },
  });
}
