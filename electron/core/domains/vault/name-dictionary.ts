/**
 * The name dictionary (every title and alias, normalised → the notes that carry it) in compact
 * form: each note's path, title and folder are held once (folders once per folder), and a name's
 * places are numbers (note number × 4 + kind), one number for a name one note carries. A list of
 * `{ path, folder, title, kind }` objects per name cost ~560 bytes a name at 50,000 notes
 * (100,000 names: 56 MB), mostly the same strings copied per name. `get` builds the objects of
 * one name when asked, in the order they were added (as the lists of objects kept them).
 */
/** A note that carries a name, and how. */
export interface EntityPlace {
  path: string;
  folder: string;
  title: string;
  kind: 'title' | 'alias' | 'link' | 'mention';
}

const KINDS: ReadonlyArray<EntityPlace['kind']> = ['title', 'alias', 'link', 'mention'];

/** What callers read: a read-only map of name → places. */
export interface NameLookup {
  get(name: string): EntityPlace[] | undefined;
  has(name: string): boolean;
  readonly size: number;
  [Symbol.iterator](): Iterator<[string, EntityPlace[]]>;
}

export class NameDictionary implements NameLookup {
  /** Name → slot; per slot its name and its places (one code, or a list of codes). */
  private readonly slots = new Map<string, number>();
  private readonly slotName: string[] = [];
  private readonly slotPlaces: Array<number | number[] | undefined> = [];
  private readonly freeSlots: number[] = [];
  /** Path → note number; per note its path, title, folder number and the slots of its names. */
  private readonly noteOf = new Map<string, number>();
  private readonly notePath: string[] = [];
  private readonly noteTitle: string[] = [];
  private readonly noteFolder: number[] = [];
  private readonly noteNames: Array<number[] | undefined> = [];
  private readonly freeNotes: number[] = [];
  private readonly folderNo = new Map<string, number>();
  private readonly folders: string[] = [];

  get size(): number {
    return this.slots.size;
  }

  has(name: string): boolean {
    return this.slots.has(name);
  }

  get(name: string): EntityPlace[] | undefined {
    const slot = this.slots.get(name);
    if (slot === undefined) return undefined;
    const codes = this.slotPlaces[slot];
    if (codes === undefined) return undefined;
    return (typeof codes === 'number' ? [codes] : codes).map((c) => this.place(c));
  }

  *[Symbol.iterator](): Iterator<[string, EntityPlace[]]> {
    for (const name of this.slots.keys()) yield [name, this.get(name) ?? []];
  }

  private place(code: number): EntityPlace {
    const note = Math.floor(code / 4);
    return { path: this.notePath[note] ?? '', folder: this.folders[this.noteFolder[note] ?? 0] ?? '', title: this.noteTitle[note] ?? '', kind: KINDS[code % 4] ?? 'title' };
  }

  /** Adds rows (name and place), in order. */
  add(rows: Iterable<EntityPlace & { name: string }>): void {
    for (const r of rows) {
      const note = this.noteFor(r);
      const code = note * 4 + Math.max(0, KINDS.indexOf(r.kind));
      let slot = this.slots.get(r.name);
      if (slot === undefined) {
        slot = this.freeSlots.pop() ?? this.slotName.length;
        this.slots.set(r.name, slot);
        this.slotName[slot] = r.name;
        this.slotPlaces[slot] = code;
      } else {
        const had = this.slotPlaces[slot];
        if (had === undefined) this.slotPlaces[slot] = code;
        else if (typeof had === 'number') this.slotPlaces[slot] = [had, code];
        else had.push(code);
      }
      (this.noteNames[note] ??= []).push(slot);
    }
  }

  /** Takes out every name the note at `path` put in. */
  remove(path: string): void {
    const note = this.noteOf.get(path);
    if (note === undefined) return;
    for (const slot of this.noteNames[note] ?? []) {
      const had = this.slotPlaces[slot];
      if (had === undefined) continue;
      const rest = (typeof had === 'number' ? [had] : had).filter((c) => Math.floor(c / 4) !== note);
      if (rest.length) this.slotPlaces[slot] = rest.length === 1 ? rest[0] : rest;
      else {
        this.slots.delete(this.slotName[slot] ?? '');
        this.slotName[slot] = '';
        this.slotPlaces[slot] = undefined;
        this.freeSlots.push(slot);
      }
    }
    this.noteOf.delete(path);
    this.notePath[note] = '';
    this.noteTitle[note] = '';
    this.noteNames[note] = undefined;
    this.freeNotes.push(note);
  }

  private noteFor(r: { path: string; folder: string; title: string }): number {
    let note = this.noteOf.get(r.path);
    if (note !== undefined) return note;
    note = this.freeNotes.pop() ?? this.notePath.length;
    this.noteOf.set(r.path, note);
    this.notePath[note] = r.path;
    this.noteTitle[note] = r.title;
    let f = this.folderNo.get(r.folder);
    if (f === undefined) {
      f = this.folders.length;
      this.folders.push(r.folder);
      this.folderNo.set(r.folder, f);
    }
    this.noteFolder[note] = f;
    return note;
  }
}
