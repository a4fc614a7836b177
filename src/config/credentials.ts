/** Where credentials come from: the environment, a logged-in profile, or `auth login` checking them. */
export type CredentialSource = 'env' | 'profile' | 'login';

/** A run's credentials, as the settings resolve them (resolve.ts) and auth uses them (src/api/auth.ts). */
export interface Credentials {
  username?: string | undefined;
  password?: string | undefined;
  /** EDP_TOKEN: a ready bearer token, never issued or renewed by the tool */
  token?: string | undefined;
  /** cookie session id */
  sessionId?: string | undefined;
  /**
   * Where they come from. Tokens issued to a profile's credentials are cached only while the
   * profile still holds them (a logout in another process stays done); those given at login
   * are being checked and get no tokens.
   */
  source?: CredentialSource | undefined;
}
