export * from './bind-field';
export * from './contract-resolver';
export * from './field-of-path';
export * from './server-field-errors';
export * from './use-failing-submit';
export * from './use-submit-form';
