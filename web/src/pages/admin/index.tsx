import { Link } from '../../router';
import { useUser } from '../../session';
import { useTitle } from '../../ui';
import { ADMIN_SECTIONS } from './sections';

/** The path of an admin section's page. */
export function adminHref(section: string): string {
  return `/app/admin/${section}`;
}

/**
 * The admin area (`/app/admin/...`): its own navigation over the sections of `sections.ts`, then the section's page.
 * Superusers only: the header links here only for them, and anyone else who opens the address is told so (the API
 * refuses them anyway, 403 on every admin route).
 */
export function AdminArea({ section }: { section?: string }) {
  const { user } = useUser();
  useTitle('Admin');
  if (!user.is_superuser) {
    return (
      <>
        <h1>Admin</h1>
        <p role="alert" class="error">
          Superuser access required. Ask an administrator of this instance for access.
        </p>
      </>
    );
  }
  const current = ADMIN_SECTIONS.find((s) => s.path === section) ?? (section === undefined ? ADMIN_SECTIONS[0] : undefined);
  const Page = current?.component;
  return (
    <div class="admin">
      <nav class="tabs admin-nav" aria-label="Admin sections">
        {ADMIN_SECTIONS.map((s) => (
          <Link key={s.path} href={adminHref(s.path)} aria-current={s === current ? 'page' : undefined}>
            {s.label}
          </Link>
        ))}
      </nav>
      {Page ? (
        <Page />
      ) : (
        <>
          <h1>Admin</h1>
          <p>
            No such section. <Link href="/app/admin">Go to the admin area</Link>.
          </p>
        </>
      )}
    </div>
  );
}
