import { Module } from '@nestjs/common';

/** Accessibility scans (/api/scan, reports, PDF, badge, /r/:id): see ../shared/spec/a11y-scan-api.md. */
@Module({})
export class A11yModule {}
