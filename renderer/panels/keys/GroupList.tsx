import { useState } from 'react'
import type { GroupSummary } from '../../../shared/admin'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { groupName, useCount, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { ConfirmButton } from './ConfirmButton'
import { GroupEditor } from './GroupEditor'
import { EMPTY_GROUP_FORM, groupFormOf } from './group-form'
import { PLURALS, STRINGS } from './strings'
import { useAction } from './use-action'
import type { KeysData } from './use-keys-data'

/** Every group: pick the one the panels work in, create, edit, delete (refused with 409 while keys use it). */
export function GroupList({ data }: { data: KeysData }) {
  const t = useT(STRINGS)
  const groups = useAppStore((s) => s.groups)
  const [editing, setEditing] = useState<string | 'new' | null>(null)
  return (
    <section className="card keys-section">
      <div className="row">
        <h3>{t('groups')}</h3>
        <button type="button" onClick={() => setEditing('new')} disabled={editing === 'new'} data-testid="group-create">{t('newGroup')}</button>
      </div>
      {editing === 'new' && (
        <GroupEditor mode="create" initial={EMPTY_GROUP_FORM} data={data} onClose={() => setEditing(null)} />
      )}
      {groups.length === 0 && <p className="muted">{t('noGroups')}</p>}
      <ul className="keys-list">
        {groups.map((g) => (
          <GroupRow key={g.id} group={g} data={data} editing={editing === g.id} onEdit={(on) => setEditing(on ? g.id : null)} />
        ))}
      </ul>
    </section>
  )
}

function GroupRow({ group, data, editing, onEdit }: { group: GroupSummary; data: KeysData; editing: boolean; onEdit: (on: boolean) => void }) {
  const t = useT(STRINGS)
  const count = useCount(PLURALS)
  const selected = useAppStore((s) => s.groupId === group.id)
  const setGroup = useAppStore((s) => s.setGroup)
  const name = groupName(group, useAppStore((s) => s.language))
  const remove = useAction()
  return (
    <li className={selected ? 'keys-group selected' : 'keys-group'} data-testid="group-row" data-group-id={group.id}>
      <div className="row">
        <label>
          <input type="radio" name="keys-group" checked={selected} onChange={() => setGroup(group.id)} data-testid="group-select" />
          <strong>{name || group.id}</strong>
          {name && <span className="muted small">{group.id}</span>}
        </label>
        <span className="badge">{t(`protocol_${group.protocol}`)}</span>
        <span className="muted small">{count('models', group.models.length)} · {count('keys', group.keyCount)}</span>
        <span className="keys-spacer" />
        <button type="button" onClick={() => onEdit(!editing)} data-testid="group-edit">{t('edit')}</button>
        <ConfirmButton
          label={t('delete')} question={t('confirmDelete', { name: name || group.id })} testId="group-delete" disabled={remove.busy}
          onConfirm={() => void remove.run(async () => {
            await admin.deleteGroup(group.id)
            await data.changed()
          })}
        />
      </div>
      <ErrorNote error={remove.error} onDismiss={remove.clear} />
      {editing && <GroupEditor mode="edit" initial={groupFormOf(group)} data={data} onClose={() => onEdit(false)} />}
    </li>
  )
}
