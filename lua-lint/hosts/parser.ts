/**
 * The host-language parsers: web-tree-sitter with the prebuilt grammars of
 * `@vscode/tree-sitter-wasm` (one package, so the runtime and the grammars share one ABI). Loaded
 * on first use only: a run over `.lua` files never loads WebAssembly.
 */
import { createRequire } from 'node:module';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';

export type { Node, Tree } from '@vscode/tree-sitter-wasm';

/** The grammar files of `@vscode/tree-sitter-wasm/wasm/` used by lua-lint. */
export type GrammarName = 'go' | 'python' | 'ruby' | 'php' | 'java' | 'c-sharp';

const require = createRequire(import.meta.url);
let runtime: Promise<typeof TreeSitter> | undefined;
const parsers = new Map<GrammarName, Promise<TreeSitter.Parser>>();

/**
 * A parser for one grammar, created once per process.
 * @throws Error when the WebAssembly runtime or the grammar cannot be loaded (a broken install).
 */
export function parserFor(grammar: GrammarName): Promise<TreeSitter.Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = (async () => {
      runtime ??= (async () => {
        const module = require('@vscode/tree-sitter-wasm') as typeof TreeSitter;
        await module.Parser.init();
        return module;
      })();
      const { Parser, Language } = await runtime;
      const language = await Language.load(require.resolve(`@vscode/tree-sitter-wasm/wasm/tree-sitter-${grammar}.wasm`));
      const created = new Parser();
      created.setLanguage(language);
      return created;
    })();
    parsers.set(grammar, parser);
  }
  return parser;
}
