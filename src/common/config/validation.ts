import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';

/**
 * The first failing field and the most telling of its messages: "required" when the value is
 * missing; otherwise the check written first on the property (usually its type), which
 * class-validator lists last.
 */
function firstProblem(errors: ValidationError[], path = ''): { field: string; message: string } | undefined {
  for (const e of errors) {
    const field = path ? `${path}.${e.property}` : e.property;
    const constraints = Object.entries(e.constraints ?? {});
    if (constraints.length > 0) {
      if (constraints.some(([name]) => name === 'whitelistValidation'))
        return { field, message: `unknown field ${field}` };
      if (e.value === undefined || e.value === null) return { field, message: `${field} is required` };
      return { field, message: constraints[constraints.length - 1][1] };
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
