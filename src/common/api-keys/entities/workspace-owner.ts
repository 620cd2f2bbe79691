import { JoinColumn, ManyToOne } from 'typeorm';
import { Workspace } from './workspace.entity';

/**
 * A row's workspace (column `workspace_id`): the row goes when its workspace goes (ON DELETE
 * CASCADE). `foreignKey` is the constraint's name, as the table's migration created it.
 */
export function WorkspaceOwner(foreignKey: string): PropertyDecorator {
  const join = JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: foreignKey });
  const relation = ManyToOne(() => Workspace, { onDelete: 'CASCADE' });
  return (target, property) => {
    join(target, property);
    relation(target, property);
  };
}
