export const HOME = '/streams';

export function loginPath(redirect: string): string {
  return `/login?${new URLSearchParams({ redirect })}`;
}

/** Only paths inside the console are followed after login; anything else goes to the root. */
export function safeRedirect(target: string | null): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/login')) return '/';
  return target;
}
