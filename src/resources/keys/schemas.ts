import { type Static, Type } from 'typebox';
import { Id, PathId, ProjectId, Timestamp } from '../../http/schemas.js';
import { MAX_LIFETIME_SECONDS, MAX_OVERLAP_SECONDS } from '../../keys/repository.js';
import { SCOPES } from '../../keys/scopes.js';

// The HTTP key API (docs/API.md, "Keys over HTTP"). A key's secret appears in the answers
// of create and roll only, once; no answer ever holds a hash.

export const ScopeName = Type.Enum(SCOPES);

const keyFields = {
  id: Id,
  label: Type.String(),
  scopes: Type.Array(ScopeName, { description: 'what the key may do' }),
  created_at: Timestamp,
  expires_at: Type.Union([Timestamp, Type.Null()], {
    description: 'unix seconds from which the key is refused; null: never',
  }),
  last_used_at: Type.Union([Timestamp, Type.Null()], {
    description: 'unix seconds, to the minute; null: never used',
  }),
};

export const Key = Type.Object(keyFields, { $id: 'Key', description: 'An API key, without its secret.' });
export type Key = Static<typeof Key>;

/** What any valid key may read of itself (GET /keys/current): what it may do and until when. */
export const CurrentKey = Type.Object(
  {
    id: keyFields.id,
    label: keyFields.label,
    scopes: keyFields.scopes,
    created_at: keyFields.created_at,
    expires_at: keyFields.expires_at,
  },
  { $id: 'CurrentKey', description: 'The calling key, without its secret.' },
);

export const KeyList = Type.Object({
  data: Type.Array(Type.Ref('Key'), { description: 'the keys that still work (not revoked, not expired), by id' }),
});

const secret = Type.String({ description: 'the key itself, shown this once: it is never stored, only its hash' });

export const CreatedKey = Type.Object({ ...keyFields, key: secret });

export const RolledKey = Type.Object({
  ...keyFields,
  key: secret,
  previous: Type.Ref('Key', { description: 'the rolled key; its expires_at is the end of the overlap' }),
});

export const RevokedKey = Type.Object({ ...keyFields, revoked_at: Timestamp });

export const KeyCreate = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 200, description: 'who or what holds the key' }),
    scopes: Type.Optional(
      Type.Array(ScopeName, {
        minItems: 1,
        uniqueItems: true,
        description: 'default: the scopes of the key that asks; none it lacks itself',
      }),
    ),
    expires_in_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIFETIME_SECONDS / 86_400,
        description: 'the key is refused this many days from now; default: never',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ label: 'static site build', scopes: ['products:read_hidden'], expires_in_days: 90 }],
  },
);
export type KeyCreate = Static<typeof KeyCreate>;

export const KeyRoll = Type.Object(
  {
    overlap_seconds: Type.Integer({
      minimum: 0,
      maximum: MAX_OVERLAP_SECONDS,
      description: 'how long the old key keeps working (0: it stops at once)',
    }),
  },
  { additionalProperties: false, examples: [{ overlap_seconds: 86400 }] },
);
export type KeyRoll = Static<typeof KeyRoll>;

export const KeyParams = Type.Object({ project_id: ProjectId, key_id: PathId('key') });
