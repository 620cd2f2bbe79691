import { Module } from '@nestjs/common';

/** Visibility reporting API (/api/v1/*): see ../shared/spec/visibility-api.md. */
@Module({})
export class VisibilityModule {}
