/** How often an extract or a load runs (§: the names are the sandbox's, documented with the CLI). */
export const SCHEDULES = ['hourly', 'daily', 'weekly', 'manual'] as const;
export type Schedule = (typeof SCHEDULES)[number];
