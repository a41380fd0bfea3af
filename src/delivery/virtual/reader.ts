// How the virtual printer reads one connection: status traffic versus job data.
//
// Between jobs, bytes that spell one of the profile's status queries (optionally preceded by its
// `setup`) are answered, and a confirmation request (the profile's `confirm.request` + id) is
// queued behind whatever this connection sent before. Any other byte starts a job. A job runs
// until a confirmation request (which ends the job and asks for the reply once it is printed) or
// the end of the connection. Status queries inside a job are job data: bobina never sends them
// mid-job, and the job's bytes stay exactly what the client wrote. A half-sent query at the end of
// a connection is dropped, as a printer drops an unfinished command.
import { bytesAt, concatBytes, indexOfBytes } from '../hex.js';
import type { StatusPlan, StatusQuery } from '../status.js';

export type JobEnd = { by: 'confirm'; id: Uint8Array } | { by: 'close' } | { by: 'reset' };

export interface ReaderEvents {
  /** A status query to answer now (status is real-time, even while a job waits for paper). */
  query(query: StatusQuery): void;
  /** A job's bytes and how it ended. */
  job(bytes: Uint8Array, end: JobEnd): void;
  /** A confirmation request outside a job: answer it once this connection's jobs have printed. */
  confirm(id: Uint8Array): void;
}

type Candidate = { bytes: Uint8Array; query: StatusQuery };

export class StreamReader {
  private readonly candidates: Candidate[];
  private pending: Uint8Array = new Uint8Array(0);
  private job: Uint8Array[] | undefined;
  private jobSize = 0;
  /** The last bytes of the job so far, where a confirmation request may have started. */
  private tail: Uint8Array = new Uint8Array(0);

  constructor(
    private readonly plan: StatusPlan | undefined,
    private readonly events: ReaderEvents,
  ) {
    const queries = plan?.queries ?? [];
    const setup = plan?.setup;
    // The setup only counts when a query follows it: the MP-4200's jobs begin with the same bytes.
    this.candidates = [...(setup ? queries.map((q) => ({ bytes: concatBytes([setup, q.send]), query: q })) : []), ...queries.map((q) => ({ bytes: q.send, query: q }))];
  }

  feed(bytes: Uint8Array): void {
    if (this.job) return this.jobData(bytes);
    this.pending = this.pending.length ? concatBytes([this.pending, bytes]) : bytes;
    while (this.pending.length && !this.job) {
      const step = this.classify(this.pending);
      if (step === 'wait') return;
      if (step === 'data') {
        const data = this.pending;
        this.pending = new Uint8Array(0);
        this.job = [];
        this.jobSize = 0;
        this.tail = new Uint8Array(0);
        return this.jobData(data);
      }
      this.pending = this.pending.subarray(step.length);
      step.handle();
    }
  }

  /** The connection ended: the job in progress (if any) ends with it. */
  end(by: 'close' | 'reset'): void {
    const job = this.job;
    this.job = undefined;
    this.pending = new Uint8Array(0);
    if (job && this.jobSize > 0) this.events.job(concatBytes(job), { by });
  }

  private classify(buf: Uint8Array): 'wait' | 'data' | { length: number; handle: () => void } {
    let partial = false;
    for (const c of this.candidates) {
      if (bytesAt(buf, c.bytes)) return { length: c.bytes.length, handle: () => this.events.query(c.query) };
      if (buf.length < c.bytes.length && bytesAt(c.bytes, buf)) partial = true;
    }
    const confirm = this.plan?.confirm;
    if (confirm) {
      const whole = confirm.request.length + confirm.idLength;
      if (bytesAt(buf, confirm.request)) {
        if (buf.length < whole) return 'wait';
        const id = buf.slice(confirm.request.length, whole);
        return { length: whole, handle: () => this.events.confirm(id) };
      }
      if (buf.length < confirm.request.length && bytesAt(confirm.request, buf)) partial = true;
    }
    return partial ? 'wait' : 'data';
  }

  private jobData(bytes: Uint8Array): void {
    const confirm = this.plan?.confirm;
    if (!confirm) {
      this.job!.push(bytes);
      this.jobSize += bytes.length;
      return;
    }
    // Look for the confirmation request across the previous chunk's end and this one.
    const whole = confirm.request.length + confirm.idLength;
    const window = concatBytes([this.tail, bytes]);
    const at = indexOfBytes(window, confirm.request);
    if (at >= 0 && window.length - at >= whole) {
      const all = concatBytes([...this.job!, bytes]);
      const start = this.jobSize - this.tail.length + at;
      const id = all.slice(start + confirm.request.length, start + whole);
      const rest = all.slice(start + whole);
      this.job = undefined;
      this.jobSize = 0;
      this.tail = new Uint8Array(0);
      if (start > 0) this.events.job(all.slice(0, start), { by: 'confirm', id });
      else this.events.confirm(id);
      if (rest.length) this.feed(rest);
      return;
    }
    this.job!.push(bytes);
    this.jobSize += bytes.length;
    this.tail = window.slice(Math.max(0, window.length - (whole - 1)));
  }
}
