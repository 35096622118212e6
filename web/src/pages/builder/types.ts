import type { Answer, GetBody, ListItem } from '../../api';

/** The builder's shapes as the API states them (api/presenters/builder.schema.ts, through the generated types). */

export type BuilderSession = GetBody<'/api/builder/sessions/{session_id}'>['session'];
export type BuilderSessionSummary = ListItem<'/api/builder/sessions'>;
export type BuilderStep = BuilderSession['steps'][number];
export type BuilderMessage = BuilderSession['messages'][number];
export type StepName = BuilderStep['name'];
export type ProposedOperation = BuilderStep['operations'][number];
export type Operation = ProposedOperation['operation'];
export type ExecutionSummary = NonNullable<BuilderStep['summary']>;
export type StepPreview = NonNullable<BuilderStep['preview']>;
/** What propose and chat answer: the step as stored, the assistant's reply (null from the planner), what it discarded. */
export type Proposal = Answer<'/api/builder/sessions/{session_id}/chat', 'post'>;
