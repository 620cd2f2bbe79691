import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export type DestinationKind = 'webhook' | 'email';
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

export interface DestinationRow {
  id: string;
  workspace_id: string;
  kind: DestinationKind;
  target: string;
  secret_sealed: string | null;
  created_at: string;
}

export interface DeliveryRow {
  id: string;
  workspace_id: string;
  destination_id: string | null;
  kind: DestinationKind;
  target: string;
  message_id: string;
  alert_kind: string;
  title: string;
  payload: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

/** Delivery log rows kept per workspace: older ones are deleted as new ones are written. */
export const DELIVERY_LOG_KEEP_DAYS = 30;

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));
const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));

/** All SQL of alerts: destinations and the delivery log (tables of migration Alerts1795734825652). */
@Injectable()
export class AlertsStore {
  constructor(private readonly db: DataSource) {}

  async addDestination(
    workspaceId: string,
    kind: DestinationKind,
    target: string,
    secretSealed: string | null,
  ): Promise<DestinationRow> {
    const rows = await this.db.query<DestinationRow[]>(
      `INSERT INTO alert_destinations (workspace_id, kind, target, secret_sealed) VALUES ($1, $2, $3, $4) RETURNING *`,
      [workspaceId, kind, target, secretSealed],
    );
    return destination(rows[0]);
  }

  async destinations(workspaceId: string): Promise<DestinationRow[]> {
    const rows = await this.db.query<DestinationRow[]>(
      `SELECT * FROM alert_destinations WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    );
    return rows.map(destination);
  }

  async destination(id: string): Promise<DestinationRow | undefined> {
    const rows = await this.db.query<DestinationRow[]>(`SELECT * FROM alert_destinations WHERE id = $1`, [id]);
    return rows[0] ? destination(rows[0]) : undefined;
  }

  /** True when a destination of that workspace was removed. */
  async removeDestination(workspaceId: string, id: string): Promise<boolean> {
    // Through a CTE: TypeORM answers a bare DELETE with [rows, count], not the rows.
    const rows = await this.db.query<unknown[]>(
      `WITH d AS (DELETE FROM alert_destinations WHERE workspace_id = $1 AND id = $2 RETURNING id) SELECT id FROM d`,
      [workspaceId, id],
    );
    return rows.length > 0;
  }

  /** One delivery row per destination, all with the alert's message id and payload. */
  async addDeliveries(
    workspaceId: string,
    dests: DestinationRow[],
    alert: { messageId: string; kind: string; title: string; payload: object },
  ): Promise<DeliveryRow[]> {
    if (dests.length === 0) return [];
    await this.db.query(
      `DELETE FROM alert_deliveries WHERE workspace_id = $1 AND created_at < now() - make_interval(days => $2)`,
      [workspaceId, DELIVERY_LOG_KEEP_DAYS],
    );
    const values: unknown[] = [];
    const tuples = dests.map((d, i) => {
      values.push(
        workspaceId,
        d.id,
        d.kind,
        d.target,
        alert.messageId,
        alert.kind.slice(0, 100),
        alert.title.slice(0, 300),
        JSON.stringify(alert.payload),
      );
      const b = i * 8;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8}::jsonb)`;
    });
    const rows = await this.db.query<DeliveryRow[]>(
      `INSERT INTO alert_deliveries (workspace_id, destination_id, kind, target, message_id, alert_kind, title, payload) VALUES ${tuples.join(', ')} RETURNING *`,
      values,
    );
    return rows.map(delivery);
  }

  async delivery(id: string): Promise<DeliveryRow | undefined> {
    const rows = await this.db.query<DeliveryRow[]>(`SELECT * FROM alert_deliveries WHERE id = $1`, [id]);
    return rows[0] ? delivery(rows[0]) : undefined;
  }

  /** Records one attempt's outcome. */
  async recordAttempt(
    id: string,
    attempt: number,
    status: DeliveryStatus,
    httpStatus: number | null,
    error: string | null,
  ): Promise<void> {
    await this.db.query(
      `UPDATE alert_deliveries SET attempts = GREATEST(attempts, $2), status = $3, last_status = $4, last_error = $5, updated_at = now(),
         delivered_at = CASE WHEN $6::boolean THEN now() ELSE delivered_at END
       WHERE id = $1`,
      [id, attempt, status, httpStatus, error === null ? null : error.slice(0, 1000), status === 'delivered'],
    );
  }

  /** The newest deliveries of a workspace, newest first. */
  async deliveries(workspaceId: string, limit = 50): Promise<DeliveryRow[]> {
    const rows = await this.db.query<DeliveryRow[]>(
      `SELECT * FROM alert_deliveries WHERE workspace_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
      [workspaceId, limit],
    );
    return rows.map(delivery);
  }
}

function destination(r: DestinationRow): DestinationRow {
  return { ...r, created_at: iso(r.created_at) };
}

function delivery(r: DeliveryRow): DeliveryRow {
  return {
    ...r,
    payload: typeof r.payload === 'string' ? (JSON.parse(r.payload) as Record<string, unknown>) : r.payload,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    delivered_at: isoOrNull(r.delivered_at),
  };
}
