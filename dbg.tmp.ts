import { keyFactsOfComparison } from './lua-lint/idioms.ts';
console.log(keyFactsOfComparison({ t: 'reply', command: 'HLEN', keyId: 'KEYS[3]', version: 0, pending: [], pcall: false, luaType: 'number' }, '==', { t: 'num', v: 2 }));
