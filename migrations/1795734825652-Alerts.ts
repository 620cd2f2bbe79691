import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alerts (src/common/notify): the destinations a workspace admin set up (webhook URLs with their
 * sealed signing secret, e-mail addresses) and the delivery log (one row per alert and destination,
 * updated by each attempt). SQL only in AlertsStore; no entity.
 */
export class Alerts1795734825652 implements MigrationInterface {
  name = 'Alerts1795734825652';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "alert_destinations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "target" character varying(2048) NOT NULL, "secret_sealed" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_alert_destinations" PRIMARY KEY ("id"), CONSTRAINT "CHK_alert_destinations_kind" CHECK ("kind" IN ('webhook', 'email')))`,
    );
    await q.query(`CREATE INDEX "IDX_alert_destinations_workspace" ON "alert_destinations" ("workspace_id")`);
    await q.query(
      `ALTER TABLE "alert_destinations" ADD CONSTRAINT "FK_alert_destinations_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `CREATE TABLE "alert_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "destination_id" uuid, "kind" character varying(16) NOT NULL, "target" character varying(2048) NOT NULL, "message_id" character varying(64) NOT NULL, "alert_kind" character varying(100) NOT NULL, "title" character varying(300) NOT NULL, "payload" jsonb NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT 0, "last_status" integer, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_alert_deliveries" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_alert_deliveries_workspace_created" ON "alert_deliveries" ("workspace_id", "created_at")`,
    );
    await q.query(
      `ALTER TABLE "alert_deliveries" ADD CONSTRAINT "FK_alert_deliveries_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "alert_deliveries" ADD CONSTRAINT "FK_alert_deliveries_destination" FOREIGN KEY ("destination_id") REFERENCES "alert_destinations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "alert_deliveries"`);
    await q.query(`DROP TABLE "alert_destinations"`);
  }
}
