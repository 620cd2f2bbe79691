import { Global, Module } from '@nestjs/common';
import { AlertsService } from './alerts.service';
import { AlertsStore } from './alerts.store';
import { MailService } from './mail.service';

/** Alerts and mail for every module (global, imported by CoreModule): AlertsService, MailService. */
@Global()
@Module({
  providers: [AlertsStore, AlertsService, MailService],
  exports: [AlertsService, MailService],
})
export class NotifyModule {}
