/** How often an extract or a load runs (not shown: the names are the sandbox's, documented with the CLI). */
export const SCHEDULES = ['hourly', 'daily', 'weekly', 'manual'] as const;
export type Schedule = (typeof SCHEDULES)[number];
