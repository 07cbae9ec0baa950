import type { SampleRequest } from '../../kernel/types';
import { invalidArgument } from '../../kernel/errors';
import { interactiveInflight, whenNoInteractive } from '../../kernel/interactive';
import type { MailConfigFiles } from './config';
import { extractToSchema, type ExtractResult } from './extract';
import { messageFacts } from './facts';
import { llmExtract, llmTriage, structuredLlm, type StructuredLlm } from './llm';
import type { MailPart } from './part';
import { ConceptTable } from './semantic';
import type { MessageRow, ThreadRow } from './store';
import { latestText } from './text';
import { triage, type LabelledExample, type TriageResult, type Urgency } from './triage';
import type { Nlp } from '../nlp';

/** The nlp domain's mail urgency head, when it has one. */
const nlpUrgency = (nlp: Nlp | undefined) => (nlp?.mailUrgency ? (text: string) => nlp.mailUrgency?.(text) ?? Promise.resolve(undefined) : undefined);

const ARRIVAL_TRIAGE_BATCH = 50;
/** Background triage hands the event loop back this often (ms), and waits while a request is in flight (kernel/interactive). */
const ARRIVAL_TRIAGE_SLICE_MS = 8;

/**
 * Understanding mail: triage against the person's taxonomy (on arrival and on request), their
 * relabels as labelled examples, and extraction to their schemas — through an LLM when one is
 * configured, on-device otherwise or when it fails.
 */
export class MailUnderstanding {
  constructor(private readonly p: MailPart) {}

  private triaging: Promise<void> = Promise.resolve();

  /**
   * Triages the latest inbound message of each thread that has none yet (default taxonomy), in
   * the order given, yielding to the event loop between batches; one run at a time, ended by stop().
   * `background`: nobody awaits it, so it also waits while an HTTP request is in flight.
   */
  triageOnArrival(inboxId: string, threadIds: string[], opts: { background?: boolean } = {}): Promise<void> {
    const signal = this.p.lifetime();
    const run = this.triaging.then(async () => {
      let tax;
      try {
        tax = this.p.files.taxonomy('default');
      } catch (e) {
        this.p.core.log.warn('triage on arrival skipped: no default taxonomy', { error: String(e) });
        return;
      }
      let done = 0;
      let sliceStart = performance.now();
      for (const threadId of threadIds) {
        if (performance.now() - sliceStart > ARRIVAL_TRIAGE_SLICE_MS || (opts.background && interactiveInflight() > 0)) {
          await new Promise<void>((r) => setImmediate(r));
          // In the background, a request in flight (a search, a page) goes first: it needs several
          // turns of the loop. (A triage some request awaits — a small import — is that request's own work.)
          if (opts.background) await whenNoInteractive();
          sliceStart = performance.now();
        }
        if (signal.aborted) return;
        const t = this.p.store.findThread(threadId);
        if (!t) continue;
        const m = [...this.p.store.threadMessages(t.id)].reverse().find((x) => x.direction === 'inbound');
        if (!m || m.triage) continue;
        try {
          const { r, why } = await this.onDeviceTriage(m, tax);
          if (signal.aborted) return;
          this.recordTriage(m, t, { ...r, ...(why.length ? { urgency_reasons: why } : {}), taxonomy_id: tax.id, at: this.p.iso() });
          done++;
        } catch (e) {
          this.p.core.log.warn('triage on arrival failed', { message_id: m.id, error: String(e) });
        }
        if (done && done % ARRIVAL_TRIAGE_BATCH === 0) this.p.changed(inboxId, 'triage');
      }
      if (done) this.p.changed(inboxId, 'triage', { triaged: done });
    });
    this.triaging = run.catch(() => undefined);
    return run;
  }

  private recordTriage(m: MessageRow, t: ThreadRow, record: Record<string, unknown> & TriageResult): void {
    this.p.store.setMessageTriage(m.id, record);
    this.p.store.setThreadTriage(t.id, { ...record, message_id: m.id });
    if (record.intent !== 'other' && !t.labels.includes(record.intent)) this.p.store.setThreadLabels(t.id, [...t.labels, record.intent]);
  }

  /** Resolves when the running triage on arrival (if any) has ended. */
  settled(): Promise<void> {
    return this.triaging;
  }

  private conceptTable: ConceptTable | null | undefined;

  /** The WordNet concept table for semantic similarity (loaded once; absent → lexical only). */
  concepts(): ConceptTable | undefined {
    if (this.conceptTable === undefined) this.conceptTable = ConceptTable.load(this.p.core.config.appRoot) ?? null;
    return this.conceptTable ?? undefined;
  }

  /** A person's relabels (Mail page) for this taxonomy, as labelled examples for the next triage. */
  relabelExamples(inboxId: string, taxonomyId: string, exceptId?: string): LabelledExample[] {
    const rows = this.p.store.db
      .prepare<unknown[], { id: string; subject: string; text: string; triage: string }>("SELECT id, subject, text, triage FROM mail_messages WHERE inbox_id = ? AND triage IS NOT NULL AND json_extract(triage, '$.relabelled') = 1 ORDER BY rowid DESC LIMIT 500")
      .all(inboxId);
    return rows.flatMap((r) => {
      if (r.id === exceptId) return [];
      const t = JSON.parse(r.triage) as { taxonomy_id?: string; intent?: string; urgency?: Urgency };
      if (t.taxonomy_id && t.taxonomy_id !== taxonomyId) return [];
      return [{ text: `${r.subject}\n${latestText(r.text)}`, intent: t.intent, urgency: t.urgency }];
    });
  }

  private async llmFor(sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<StructuredLlm | undefined> {
    return structuredLlm({ sample, llm: this.p.core.config.file.llm, signal });
  }

  /**
   * Triage with what is on this machine: taxonomy, facts, concepts, the person's relabels and the
   * ONNX model; `why` names the strongest signals behind the urgency (stored with the triage).
   */
  private async onDeviceTriage(m: MessageRow, tax: ReturnType<MailConfigFiles['taxonomy']>): Promise<{ r: TriageResult; why: string[] }> {
    const facts = await messageFacts(m, this.p.store.messageRaw(m.id));
    const earlier = this.p.store.threadMessages(m.thread_id).filter((x) => x.id !== m.id && x.created_at <= m.created_at);
    const me = this.p.store.findInbox(m.inbox_id)?.address;
    const u = this.p.deps.urgency;
    let why: string[] = [];
    const r = await triage(m, tax, this.p.deps.nlp, {
      facts,
      concepts: this.concepts(),
      earlier,
      examples: this.relabelExamples(m.inbox_id, tax.id, m.id),
      me,
      urgencyModel: u?.model,
      textHead: u?.head === null ? undefined : (u?.head ?? nlpUrgency(this.p.deps.nlp)),
      onUrgency: (v) => {
        why = v.reasons.filter((x) => x.level === v.urgency && x.weight > 0).slice(0, 3).map((x) => x.signal);
        u?.observe?.(v);
      },
    });
    return { r, why };
  }

  async triageMessage(a: { message_id: string; taxonomy_id: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<TriageResult> {
    const m = this.p.store.message(a.message_id);
    const tax = this.p.files.taxonomy(a.taxonomy_id);
    const earlier = this.p.store.threadMessages(m.thread_id).filter((x) => x.id !== m.id && x.created_at <= m.created_at);
    const llm = await this.llmFor(sample, signal);
    const viaLlm = llm ? await llmTriage(llm, m, tax, earlier).catch(() => undefined) : undefined;
    const { r, why } = viaLlm ? { r: viaLlm, why: [] } : await this.onDeviceTriage(m, tax);
    this.recordTriage(m, this.p.store.thread(m.thread_id), { ...r, ...(why.length ? { urgency_reasons: why } : {}), taxonomy_id: tax.id, at: this.p.iso() });
    this.p.changed(m.inbox_id, 'triage', { thread_id: m.thread_id });
    return r;
  }

  /**
   * A person corrects triage on the Mail page: the correction is stored on the message (marked
   * `relabelled`) and becomes a labelled example that later triage of similar mail follows.
   */
  relabel(a: { message_id: string; intent?: string; urgency?: Urgency; taxonomy_id?: string }): Record<string, unknown> {
    const m = this.p.store.message(a.message_id);
    if (!a.intent && !a.urgency) throw invalidArgument('Pass intent and/or urgency to relabel a message.');
    if (a.urgency && !['low', 'medium', 'high'].includes(a.urgency)) throw invalidArgument('urgency must be low, medium or high.');
    const prev = (m.triage ?? {}) as Record<string, unknown>;
    const taxonomyId = a.taxonomy_id ?? (typeof prev.taxonomy_id === 'string' ? prev.taxonomy_id : 'default');
    const tax = this.p.files.taxonomy(taxonomyId);
    if (a.intent && !tax.intents.some((i) => i.id === a.intent)) {
      throw invalidArgument(`Intent '${a.intent}' is not in taxonomy '${tax.id}'; use one of: ${tax.intents.map((i) => i.id).join(', ')}.`, { intents: tax.intents.map((i) => i.id) });
    }
    const intent = a.intent ?? (prev.intent as string | undefined);
    const route = tax.intents.find((i) => i.id === intent)?.route;
    const record: Record<string, unknown> = { ...prev, ...(a.intent ? { intent: a.intent } : {}), ...(a.urgency ? { urgency: a.urgency } : {}), taxonomy_id: tax.id, relabelled: 1, confidence: 1, at: this.p.iso() };
    if (route) record.suggested_route = route;
    else delete record.suggested_route;
    this.p.store.setMessageTriage(m.id, record);
    const t = this.p.store.thread(m.thread_id);
    this.p.store.setThreadTriage(t.id, { ...record, message_id: m.id });
    if (a.intent) {
      const oldIntent = typeof prev.intent === 'string' ? prev.intent : undefined;
      const labels = t.labels.filter((l) => l !== oldIntent);
      if (!labels.includes(a.intent)) labels.push(a.intent);
      this.p.store.setThreadLabels(t.id, labels);
    }
    this.p.changed(m.inbox_id, 'triage', { thread_id: t.id });
    return record;
  }

  async extract(a: { message_id: string; schema_id: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<ExtractResult> {
    const m = this.p.store.message(a.message_id);
    const { schema } = this.p.files.schema(a.schema_id);
    const facts = await messageFacts(m, this.p.store.messageRaw(m.id));
    const llm = await this.llmFor(sample, signal);
    if (llm) {
      const r = await llmExtract(llm, m, schema, facts).catch(() => undefined);
      if (r) return r;
    }
    return extractToSchema(m, schema, this.p.deps.nlp, facts);
  }
}
