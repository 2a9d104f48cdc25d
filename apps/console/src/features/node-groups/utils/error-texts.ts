/** The spec's fallback texts (section 8), shown when the server sent no message of its own. */
export const NODE_GROUP_ERRORS = {
  load: 'Something wrong with node group loading on dashboard',
  update: 'Something wrong with node group loading on update',
  delete: 'Something wrong with node group deleting',
  create: 'Something wrong with node group creating',
  addRule: 'Something wrong on appending scale group',
  /** Saving the scaling rule modal. */
  updateRule: 'Something wrong on updating scale rule',
  /** A rule's enabled toggle. */
  toggleRule: 'Something wrong on updating scaling rule',
  deleteRule: 'Something wrong on deleting scaling rule',
} as const;
