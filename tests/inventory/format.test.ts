// The inventory format (inventory/format.ts): a valid document round-trips; every kind of bad
// document is one InventoryError naming the file, where (line:column or JSON path) and what.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type InventoryDocument, InventoryError, isPersistentShape, parseInventory, readInventoryFile, serializeInventory } from '../../inventory/format.js';

const valid: InventoryDocument = {
  version: 1,
  tool: 'redis-ttl-keys 0.1.0',
  root: '.',
  shapes: [
    {
      shape: 'session:*',
      keyPrefix: 'app:',
      persistent: false,
      writes: [{ file: 'src/store.ts', line: 7, column: 9, command: 'SET', client: 'ioredis', ttl: 'none' }],
      reads: [{ file: 'src/store.ts', line: 12, column: 9, command: 'GET', client: 'ioredis' }],
    },
    {
      shape: 'job:*:meta',
      writes: [
        { file: 'scripts/claim.lua', line: 3, column: 1, command: 'HSET', client: 'lua', ttl: 'atomic', via: { file: 'src/jobs.ts', line: 20, column: 5, key: "KEYS[1] .. ':meta'" } },
      ],
    },
  ],
  unresolved: [{ file: 'scripts/other.lua', line: 2, column: 1, command: 'SET', client: 'lua', ttl: 'none', key: 'KEYS[2]' }],
};

function problem(document: unknown): string {
  try {
    parseInventory(typeof document === 'string' ? document : JSON.stringify(document, null, 2), 'inv.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InventoryError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

const withShape = (patch: Record<string, unknown>) => ({ ...valid, shapes: [{ ...valid.shapes[0], ...patch }] });
const withWrite = (patch: Record<string, unknown>) => withShape({ writes: [{ ...valid.shapes[0]!.writes[0], ...patch }] });

describe('parseInventory', () => {
  it('accepts a valid document and round-trips it through serializeInventory', () => {
    expect(parseInventory(serializeInventory(valid), 'inv.json')).toEqual(valid);
    expect(serializeInventory(valid).endsWith('}\n')).toBe(true);
    expect(parseInventory(`\uFEFF${JSON.stringify(valid)}`, 'inv.json')).toEqual(valid);
    expect(parseInventory('{"version":1,"root":".","shapes":[]}', 'x')).toEqual({ version: 1, root: '.', shapes: [] });
  });

  it('names the line and column of a JSON syntax error', () => {
    expect(problem('{\n  "version": 1,\n  "root": x\n}')).toMatch(/^inv\.json: (3:11: )?not valid JSON \(Unexpected token/);
    expect(problem('{\n  "version": 1,\n}')).toBe('inv.json: 3:1: not valid JSON (Expected double-quoted property name)');
    expect(problem('')).toBe('inv.json: not valid JSON (Unexpected end of JSON input)');
  });

  it('names the JSON path of a value that is not the format', () => {
    expect(problem([])).toBe('inv.json: $: expected an object, got an array');
    expect(problem({ root: '.', shapes: [] })).toBe('inv.json: $: missing field "version"');
    expect(problem({ ...valid, version: 2 })).toBe('inv.json: $.version: inventory version 2 is newer than this tool reads (1): update eslint-plugin-redis-ttl');
    expect(problem({ ...valid, version: '1' })).toBe('inv.json: $.version: expected 1, got the string "1"');
    expect(problem({ ...valid, extra: 1 })).toBe('inv.json: $.extra: unknown field (a version 1 inventory has "version", "root", "shapes", "tool", "unresolved" here)');
    expect(problem({ ...valid, shapes: {} })).toBe('inv.json: $.shapes: expected an array, got an object');
    expect(problem(withShape({ shape: '' }))).toBe('inv.json: $.shapes[0].shape: expected a non-empty string');
    expect(problem(withShape({ keyPrefix: 3 }))).toBe('inv.json: $.shapes[0].keyPrefix: expected a string, got number 3');
    expect(problem(withShape({ persistent: 'no' }))).toBe('inv.json: $.shapes[0].persistent: expected true or false, got the string "no"');
    expect(problem(withShape({ write: [] }))).toBe('inv.json: $.shapes[0].write: unknown field (a version 1 inventory has "shape", "writes", "keyPrefix", "persistent", "reads" here)');
    expect(problem(withWrite({ ttl: 'sometimes' }))).toBe('inv.json: $.shapes[0].writes[0].ttl: expected one of "atomic", "separate", "none", "keepttl", "persistent", got the string "sometimes"');
    // optionalTtl: only `true`, only on a "none" write
    expect(parseInventory(JSON.stringify(withWrite({ optionalTtl: true })), 'inv.json').shapes[0]!.writes[0]!.optionalTtl).toBe(true);
    expect(problem(withWrite({ optionalTtl: false }))).toBe('inv.json: $.shapes[0].writes[0].optionalTtl: expected true (or no field), got boolean false');
    expect(problem(withWrite({ ttl: 'atomic', optionalTtl: true }))).toBe('inv.json: $.shapes[0].writes[0].optionalTtl: only a "none" write has an optional TTL, this one is "atomic"');
    // lifecycle: a key the code manages, on a "none" or "keepttl" write; `by` a site with its command
    const deleted = { reading: 'deleted', by: { file: 'src/cleanup.ts', line: 5, column: 15, command: 'DEL' } };
    expect(parseInventory(JSON.stringify(withWrite({ lifecycle: deleted })), 'inv.json').shapes[0]!.writes[0]!.lifecycle).toEqual(deleted);
    expect(parseInventory(JSON.stringify(withWrite({ ttl: 'keepttl', lifecycle: { reading: 'ttl-record' } })), 'inv.json').shapes[0]!.writes[0]!.lifecycle).toEqual({ reading: 'ttl-record' });
    expect(problem(withWrite({ lifecycle: { reading: 'gc' } }))).toBe(
      'inv.json: $.shapes[0].writes[0].lifecycle.reading: expected one of "deleted", "drained", "stream", "ttl-record", "id-sequence", got the string "gc"',
    );
    expect(problem(withWrite({ ttl: 'atomic', lifecycle: deleted }))).toBe('inv.json: $.shapes[0].writes[0].lifecycle: only a "none" or "keepttl" write has a lifecycle, this one is "atomic"');
    expect(problem(withWrite({ lifecycle: { reading: 'deleted', by: { file: 'a.ts', line: 1, column: 1 } } }))).toBe('inv.json: $.shapes[0].writes[0].lifecycle.by: missing field "command"');
    expect(problem(withWrite({ lifecycle: { reading: 'deleted', at: 1 } }))).toBe('inv.json: $.shapes[0].writes[0].lifecycle.at: unknown field (a version 1 inventory has "reading", "by" here)');
    expect(problem(withWrite({ line: 0 }))).toBe('inv.json: $.shapes[0].writes[0].line: expected a whole number >= 1 (1-based), got number 0');
    expect(problem(withWrite({ column: 1.5 }))).toBe('inv.json: $.shapes[0].writes[0].column: expected a whole number >= 1 (1-based), got number 1.5');
    expect(problem(withWrite({ command: 'set' }))).toBe('inv.json: $.shapes[0].writes[0].command: expected a Redis command name in capitals (SET, HSET, EVALSHA), got the string "set"');
    expect(problem(withWrite({ file: 'src\\store.ts' }))).toBe('inv.json: $.shapes[0].writes[0].file: expected a path with / separators, got the string "src\\\\store.ts"');
    expect(problem(withWrite({ via: { file: 'a.ts', line: 1, column: 1 } }))).toBe('inv.json: $.shapes[0].writes[0].via: missing field "key"');
    expect(problem(withShape({ reads: [{ file: 'a.ts', line: 1, column: 1, command: 'GET', client: 'ioredis', ttl: 'none' }] }))).toBe(
      'inv.json: $.shapes[0].reads[0].ttl: unknown field (a version 1 inventory has "file", "line", "column", "command", "client" here)',
    );
    expect(problem({ ...valid, unresolved: [{ ...valid.unresolved![0], key: undefined }] })).toBe('inv.json: $.unresolved[0]: missing field "key"');
  });

  it('refuses a shape given twice with the same keyPrefix, and accepts it under another', () => {
    const twice = { ...valid, shapes: [valid.shapes[0], valid.shapes[1], { ...valid.shapes[0] }] };
    expect(problem(twice)).toBe('inv.json: $.shapes[2]: repeats $.shapes[0] (shape "session:*" with keyPrefix "app:"): one entry per shape, with all its sites');
    const other = { ...valid, shapes: [valid.shapes[0], { ...valid.shapes[0], keyPrefix: 'v2:' }] };
    expect(parseInventory(JSON.stringify(other), 'x').shapes).toHaveLength(2);
  });
});

describe('readInventoryFile', () => {
  it('reads a file, and says when it cannot', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inventory-'));
    const file = path.join(dir, 'inv.json');
    writeFileSync(file, serializeInventory(valid));
    expect(await readInventoryFile(file)).toEqual(valid);
    await expect(readInventoryFile(path.join(dir, 'missing.json'))).rejects.toThrow(`${path.join(dir, 'missing.json')}: cannot read the inventory (file not found)`);
    await expect(readInventoryFile(dir)).rejects.toThrow(`${dir}: cannot read the inventory (is a directory)`);
  });
});

describe('isPersistentShape', () => {
  it('uses persistent when given, else whether every write is persistent', () => {
    const write = valid.shapes[0]!.writes[0]!;
    expect(isPersistentShape({ shape: 'a', writes: [{ ...write, ttl: 'persistent' }] })).toBe(true);
    expect(isPersistentShape({ shape: 'a', writes: [{ ...write, ttl: 'persistent' }, write] })).toBe(false);
    expect(isPersistentShape({ shape: 'a', writes: [] })).toBe(false);
    expect(isPersistentShape({ shape: 'a', persistent: true, writes: [write] })).toBe(true);
    expect(isPersistentShape({ shape: 'a', persistent: false, writes: [{ ...write, ttl: 'persistent' }] })).toBe(false);
  });
});
