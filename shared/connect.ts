/**
 * Connect tools (GET/POST /admin/v1/connect…): pointing Claude Code and Codex at this gateway by changing only the
 * keys Gatehouse owns in their own settings files, with a diff first, a backup, Undo and Disconnect.
 */
/** The tools the panel and `npm run gateway -- connect` know: the gateway's connectors and the app share this one list. */
export const CONNECT_TOOLS = ['claude-code', 'codex', 'gemini-cli'] as const
export type ConnectTool = (typeof CONNECT_TOOLS)[number]

export interface ConnectionSummary {
  connectedAt: number
  group: string
  model: string
  keyId: string
  keyHint: string
  /** each file written, and its backup (null: the file did not exist before) */
  files: Array<{ path: string; backup: string | null }>
}

export interface ToolStatus {
  tool: ConnectTool
  name: string
  /** false: Gatehouse does not speak this tool's protocol (Gemini CLI calls Gemini's generateContent API) */
  supported: boolean
  /** the protocol of the group its key needs */
  protocol: 'messages' | 'chat' | null
  /** the tool's program found on PATH, or null */
  program: string | null
  /** the tool's settings folder exists */
  homeFound: boolean
  /** the files a connection writes */
  files: string[]
  /** how to run the tool once connected */
  usage: string
  connection: ConnectionSummary | null
}

export interface SdkVariable {
  name: 'OPENAI_BASE_URL' | 'ANTHROPIC_BASE_URL'
  /** its value in the gateway's environment, or null */
  value: string | null
  /** the value that points an SDK at this gateway */
  suggested: string
  pointsHere: boolean
}

export interface ConnectOverview {
  tools: ToolStatus[]
  sdk: SdkVariable[]
}

export interface FileChangeSummary {
  path: string
  action: 'create' | 'update' | 'delete' | 'none'
  /** a unified diff; the gateway key's secret (and any token at its place) is masked */
  diff: string
  /** where the file as it was is copied (a connection's write), or null */
  backup: string | null
}

export interface ConnectResult {
  tool: ConnectTool
  /** true: nothing was written (the diffs show what would be) */
  dryRun: boolean
  changes: FileChangeSummary[]
  /** the connection after the call (null after a disconnect or an undo, or on a dry run of a connect) */
  connection: ConnectionSummary | null
  usage: string
}

/** POST /admin/v1/connect/{tool} */
export interface ConnectBody {
  /** the group of the key made for the tool (default: the first group of the protocol it needs) */
  group?: string
  /** the model the tool is set to (Codex; default: the group's first model) */
  model?: string
  dryRun?: boolean
}
