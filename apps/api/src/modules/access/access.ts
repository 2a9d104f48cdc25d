import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import { notFound } from '../../lib/errors.js';
import type { AccessFacts, AccessRepository } from './access.repository.js';

export { type AccessDefinition, type AccessFacts, AccessRepository } from './access.repository.js';

/**
 * The resources whose access is checked, by name. Empty here: each module declares its own from its
 * manifest (`declare module '../access/access.js' { interface AccessResources { storage: true } }`) with
 * how their owner is read (the manifest's `access`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declaration merging
export interface AccessResources {}

export type Resource = keyof AccessResources & string;

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    /** Who may use what (modules/access): every module's ownership and node checks. */
    access: Access;
  }
}

/** The rule of tenancy: an account uses its own resources; an ADMIN uses every account's. */
export const mayUse = (auth: AuthContext, ownerId: string | null) =>
  auth.role === 'ADMIN' || (ownerId !== null && ownerId === auth.accountId);

/** The rule of the node-facing API: a node sees only the streams it serves (and what is attached to them). */
export const serves = (node: NodeIdentity, nodeId: string | null) => nodeId === node.id;

/**
 * Who may use what, in one place. A resource of another account answers exactly as one that does not
 * exist (404), so ids of other accounts cannot be probed; a node sees only what it serves.
 */
export class Access {
  constructor(private readonly repository: AccessRepository) {}

  /** The resource's facts when `auth` may use it (its account, or an ADMIN); else 404. */
  async require(auth: AuthContext, resource: Resource, id: string): Promise<AccessFacts> {
    const facts = await this.repository.facts(resource, id);
    if (!facts || !mayUse(auth, facts.ownerId)) throw notFound(this.repository.definition(resource).entity);
    return facts;
  }

  /** The resource's facts when `node` serves its stream; else 404 (the node-facing API). */
  async requireServedBy(node: NodeIdentity, resource: Resource, id: string): Promise<AccessFacts> {
    const facts = await this.servedBy(node, resource, id);
    if (!facts) throw notFound(this.repository.definition(resource).entity);
    return facts;
  }

  /**
   * The resource's facts when `node` serves its stream, else null: a node's report about what it does not
   * serve (deleted, or moved to another node) changes nothing.
   */
  async servedBy(node: NodeIdentity, resource: Resource, id: string): Promise<AccessFacts | null> {
    const facts = await this.repository.facts(resource, id);
    return facts && serves(node, facts.nodeId) ? facts : null;
  }

  /**
   * The resource's facts, checked against no caller: for a public route that files what it stores under the
   * resource's account (a viewer's beacon under its output's stream). Null when it does not exist.
   */
  find(resource: Resource, id: string): Promise<AccessFacts | null> {
    return this.repository.facts(resource, id);
  }

  /** The account's id when the resource exists (e.g. to match a storage with a stream's account). */
  async ownerOf(resource: Resource, id: string): Promise<string | null> {
    return (await this.repository.facts(resource, id))?.ownerId ?? null;
  }

  /**
   * Which account's resources a list shows: a USER only its own (naming another account is a 404); an ADMIN
   * the named account, or every account (null).
   */
  accountScope(auth: AuthContext, account: string | undefined): string | null {
    if (auth.role === 'ADMIN') return account ?? null;
    if (account !== undefined && account !== auth.accountId) throw notFound('Account');
    return auth.accountId;
  }
}
