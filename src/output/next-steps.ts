import { runCredentials, runWorkspace, suggest } from '../util/suggest.js';

/**
 * What to do when the credentials in use were refused (401) or are missing, by where they came
 * from: a variable set wrong is named, not advice to set it; a profile's login names the profile.
 */
export function credentialsNextStep(refused: boolean): string {
  const login = suggest(['auth', 'login']);
  switch (runCredentials()) {
    case 'EDP_TOKEN': {
      const ws = runWorkspace();
      return `EDP_TOKEN was ${refused ? 'refused' : 'not enough'} (a token lapses 30 minutes after its last use, and acts in one workspace): print a new one with \`${suggest(['token', '--env'], { workspace: ws ?? 'ID' })}\` using the agency's credentials, or unset EDP_TOKEN`;
    }
    case 'EDP_SESSION_ID':
      return 'EDP_SESSION_ID was refused: sign in again for a new session, or unset EDP_SESSION_ID to use the agency credentials';
    case 'EDP_USERNAME':
      return refused
        ? `the service refused EDP_USERNAME and EDP_PASSWORD: correct them, or unset both to use the credentials \`${login}\` stores`
        : `set both EDP_USERNAME and EDP_PASSWORD, or unset them to use the credentials \`${login}\` stores`;
    case 'profile':
      return `log in again with \`${login}\`${refused ? ' (the stored password was refused)' : ''}, or set EDP_USERNAME and EDP_PASSWORD`;
    default:
      return `log in with \`${login}\`, or set EDP_USERNAME and EDP_PASSWORD (EDP_TOKEN with EDP_WORKSPACE for one workspace)`;
  }
}
