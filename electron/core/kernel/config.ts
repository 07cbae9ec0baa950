import { z } from 'zod';

/** `<data-dir>/config.json`: everything optional; flags beat environment beat this file. */
export const ConfigFileSchema = z
  .object({
    vault: z.string().optional(),
    port: z.number().int().min(0).max(65535).optional(),
    /** Initialise a git repository in the vault if it has none (default: only for the demo vault). */
    git_init: z.boolean().optional(),
    /** Remote for `git push` (HTTP(S) URL). */
    git_remote: z.string().optional(),
    /** An OpenAI-compatible endpoint (e.g. a local Ollama) for mapping and drafting. */
    llm: z.object({ base_url: z.string(), model: z.string(), api_key: z.string().optional(), api_key_sealed: z.string().optional() }).optional(),
    /** Paths of larger ONNX models with the same inputs/outputs. */
    models: z.record(z.string(), z.string()).optional(),
  })
  .passthrough();
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

export interface Config {
  version: string;
  dataDir: string;
  vaultDir: string;
  /** True when no vault was configured and the demo vault was chosen. */
  demoVault: boolean;
  /** 0 = pick a free port. */
  port: number;
  /**
   * Where the port came from. A port asked for by flag or environment must be had (else a clear
   * error); the remembered or default one falls back to a free port with a note when it is taken.
   */
  portSource: 'flag' | 'env' | 'file' | 'default';
  file: ConfigFile;
  /** Repo root (for resources/ and models/). */
  appRoot: string;
}
