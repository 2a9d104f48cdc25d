/**
 * A control fixed after creation: shown with its stored value, not registered (a disabled input has no
 * value in the form).
 */
export const fixedCheck = (checked: boolean) => ({ checked, disabled: true, readOnly: true }) as const;
export const fixedSelect = (value: string) => ({ value, disabled: true, onChange: () => undefined }) as const;
