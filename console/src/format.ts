// Dates as operators read them: the browser's own locale and time zone.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** Unix seconds -> "12 Mar 2026, 14:05"; null -> "never". */
export function when(seconds: number | null | undefined, none = 'never'): string {
  return seconds == null ? none : dateTime.format(new Date(seconds * 1000));
}

export function dayLabel(date: Date): string {
  return day.format(date);
}

/** "ready_for_pickup" -> "ready for pickup" */
export function words(name: string): string {
  return name.replace(/_/g, ' ');
}

/** The message of whatever was thrown, for an alert beside the action. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A text field of a submitted form ('' when absent). */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/**
 * A submitted form, handled by the screen instead of the browser: its fields, and the form
 * element (to reset once the action succeeded).
 */
export function submitted(event: SubmitEvent): { form: FormData; element: HTMLFormElement } {
  event.preventDefault();
  const element = event.currentTarget as HTMLFormElement;
  return { form: new FormData(element), element };
}
