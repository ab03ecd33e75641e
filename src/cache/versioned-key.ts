export interface VersionedProject {
  id: string;
  created_at: number;
  data_version: number;
}

/**
 * A cache key scoped to one project at one data_version. created_at tells apart a project
 * that was removed and made again (its version restarts). \u0000 occurs in none of the parts.
 */
export function versionedKey(project: VersionedProject, rest: string): string {
  return `${project.id}\u0000${project.created_at}\u0000${project.data_version}\u0000${rest}`;
}
