import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A secret generated once per deployment (shared by its instances, kept across restarts). */
@Entity({ name: 'app_secrets' })
export class AppSecret {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_app_secrets' })
  name!: string;

  @Column({ type: 'varchar', length: 128 })
  value!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
