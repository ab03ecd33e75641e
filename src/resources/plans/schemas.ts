import { type Static, Type } from 'typebox';
import { Id, PathId, ProjectId, Timestamp } from '../../http/schemas.js';
import { INTERVALS, PLAN_STATUSES } from './record.js';

export const Price = Type.Object({
  id: Id,
  amount: Type.Integer({ description: "in the currency's smallest unit" }),
  currency: Type.String(),
  interval: Type.Enum(INTERVALS),
  interval_count: Type.Integer(),
  trial_days: Type.Integer(),
});

export const Plan = Type.Object(
  {
    id: Id,
    name: Type.String(),
    description: Type.String(),
    status: Type.Enum(PLAN_STATUSES, { description: 'only active plans can be subscribed to' }),
    prices: Type.Array(Price, { description: 'sorted by amount, then id' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Plan' },
);
export type Plan = Static<typeof Plan>;

export const PlanList = Type.Object({ data: Type.Array(Type.Ref('Plan')) });
export const PlanParams = Type.Object({ project_id: ProjectId, plan_id: PathId('plan') });

export const PlanListQuery = Type.Object(
  {
    fetch_inactive: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'true: plans of every status (an operator view); needs an API key of the project',
        examples: [false],
      }),
    ),
  },
  { additionalProperties: false },
);
