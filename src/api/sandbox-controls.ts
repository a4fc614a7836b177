import { ApiClient, type AuthProvider, type ClientOptions } from './client.js';

/**
 * The sandbox's own controls under `/_sandbox/` (docs/sandbox.md, Controls): not operations of
 * the service, so not in the registry. They take no credentials; a sandbox started with a control
 * token wants it in `X-Sandbox-Token`.
 */

/** `POST /_sandbox/events`: one event of a type, delivered to the workspace's subscribed endpoints. */
export interface TriggerBody {
  event_type: string;
  workspace_id: number;
  data?: Record<string, unknown> | undefined;
}

export interface TriggeredEvent {
  event: { id: string; type: string; timestamp: string; workspace_id: number; data: Record<string, unknown> };
  endpoints: Array<{ id: number; url: string }>;
}

/** Sends the control token, when there is one, with every request. */
function controlAuth(token: string | undefined): AuthProvider {
  return {
    headers: async (): Promise<Record<string, string>> => (token ? { 'x-sandbox-token': token } : {}),
    renew: async () => false,
    used: () => undefined,
  };
}

export class SandboxControls {
  private readonly client: ApiClient;

  constructor(opts: Omit<ClientOptions, 'auth'> & { controlToken?: string | undefined }) {
    const { controlToken, ...rest } = opts;
    this.client = new ApiClient({ ...rest, auth: controlAuth(controlToken) });
  }

  /** Not repeated: a second attempt would make a second event, delivered again. */
  async trigger(body: TriggerBody): Promise<TriggeredEvent> {
    const res = await this.client.request<TriggeredEvent>({
      method: 'POST',
      path: '/_sandbox/events',
      body,
      auth: 'none',
      repeatable: false,
    });
    return res.data;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
