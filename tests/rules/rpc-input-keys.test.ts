/**
 * Keys named by a remote caller of a procedure (`redis-calls/rpc-input.ts`, read by
 * `redis-calls/user-named-key.ts`, under `allowPassThrough`), from the kind's definition: a key
 * that is, verbatim, a field of a tRPC procedure's `input` (`.input(...)` on the builder, then
 * `.query` / `.mutation` / `.subscription`; `({ input })`, `opts.input`, `{ input: { key } }`; tRPC
 * v9's `{ input, resolve }`), of a GraphQL resolver's arguments (a `Query` / `Mutation` map's
 * field, a field configuration's `resolve` beside `args`, NestJS `@Args`), written by a command
 * that keeps an existing key's TTL, is the caller's key: not reported in `recommended`. The limits
 * stay reported: a key built from an input field, a read through a call, a procedure with no
 * `.input(...)`, the resolver's context, a `.query(fn)` of something that is no procedure builder,
 * a SET that drops the key's TTL (SiriusScan/Sirius `store.ts`'s shape), and `strict`.
 */
import incrRule from '../../rules/incr-needs-expire-on-create.js';
import setRule from '../../rules/set-requires-ttl-or-keepttl.js';
import { STRICT_KEY_POLICY } from '../helpers/lint.js';
import { ioredis, positionOf, runRule, untypedTester, noExpiryWithMulti as noExpiry, noExpiryReturned as returned } from './tester.js';

const at = positionOf;

// ---- the kind: each RPC framework's shape
const trpc = ioredis(
  [
    'export const storeRouter = createTRPCRouter({',
    '  push: protectedProcedure',
    '    .input(z.object({ key: z.string(), value: z.string() }))',
    '    .mutation(async ({ input }) => {',
    '      const { key, value } = input;',
    '      await redis.rpush(key, value);',
    '      return true;',
    '    }),',
    '  add: t.procedure.use(isAdmin).input(schema).mutation((opts) => redis.sadd(opts.input.key, opts.input.member)),',
    '  bump: publicProcedure.input(z.string()).mutation(({ input }) => redis.incr(input)),',
    '  nested: publicProcedure.input(schema).mutation(({ ctx, input: { hash } }) => redis.hset(hash.key, hash.field, hash.value)),',
    '  watch: publicProcedure.input(schema).subscription(({ input }) => redis.zadd(input.key, 1, input.member)),',
    '});',
  ].join('\n'),
);
const trpcV9 = ioredis("export const router = trpc.router().mutation('add', {\n  input: z.object({ key: z.string() }),\n  resolve: ({ input }) => redis.sadd(input.key, 'm'),\n});");
const graphqlMap = ioredis(
  "export const resolvers = {\n  Mutation: {\n    push: async (parent, { key, value }, { client }) => {\n      await redis.lpush(key, value);\n      return true;\n    },\n    add(_, args) {\n      return redis.sadd(args.key, args.member);\n    },\n  },\n};",
);
const graphqlJs = ioredis(
  "export const mutation = new GraphQLObjectType({\n  name: 'Mutation',\n  fields: () => ({\n    pushToRedis: {\n      type: GraphQLString,\n      args: { key: { type: GraphQLString } },\n      resolve: (_, args) => redis.rpush(args.key, 'v'),\n    },\n  }),\n});",
);
const nestResolver = ioredis(
  "@Resolver()\nexport class KeysResolver {\n  @Mutation(() => Boolean)\n  add(@Args('key') key: string, @Args() args: { member: string; hash: string }) {\n    void redis.sadd(key, args.member);\n    return redis.hset(args.hash, 'f', 'v');\n  }\n}",
);

// ---- the limits: stay reported
const built = ioredis("export const r = router({\n  add: publicProcedure.input(schema).mutation(({ input }) => redis.sadd(`user:${input.id}`, 'm')),\n});");
const called = ioredis("export const r = router({\n  add: publicProcedure.input(schema).mutation(({ input }) => redis.sadd(input.key.trim(), 'm')),\n});");
// no `.input(...)`: the procedure has no caller-named value (a context field is the server's)
const noInput = ioredis("export const r = router({\n  add: publicProcedure.mutation(({ ctx }) => redis.sadd(ctx.session.key, 'm')),\n});");
// a `.query(fn)` of something else: a job queue's handler, no procedure builder
const notProcedure = ioredis("queue.query(({ input }) => redis.sadd(input.key, 'm'));");
// the resolver's context and its parent are the server's, not the caller's
const graphqlContext = ioredis("export const resolvers = {\n  Mutation: {\n    add: (parent, args, ctx) => redis.sadd(ctx.key, parent.key),\n  },\n  Subscription: {\n    added: { subscribe: (_, args) => redis.incr(args.key) },\n  },\n};");
// a resolver map field of any other type (a type's own field resolver reads the parent)
const typeField = ioredis("export const resolvers = {\n  User: {\n    visits: (user, args) => redis.incr(args.key),\n  },\n};");
// SiriusScan/Sirius sirius-ui/src/server/api/routers/store.ts:210: SET drops the TTL the caller's key had
const siriusSet = ioredis(
  "export const storeRouter = createTRPCRouter({\n  setValue: protectedProcedure\n    .input(z.object({ key: z.string(), value: z.string() }))\n    .mutation(async ({ input }) => {\n      const { key, value } = input;\n      await redis.set(key, value);\n      return true;\n    }),\n});",
);

runRule(untypedTester, 'incr-needs-expire-on-create (keys named by a remote caller)', incrRule, {
  valid: [trpc, trpcV9, graphqlMap, graphqlJs, nestResolver],
  invalid: [
    { code: built, errors: [returned(built, 'sadd(`user:${input.id}`')] },
    { code: called, errors: [returned(called, 'sadd(input.key.trim()')] },
    { code: noInput, errors: [returned(noInput, 'sadd(ctx.session.key')] },
    { code: notProcedure, errors: [returned(notProcedure, 'sadd(input.key')] },
    { code: graphqlContext, errors: [returned(graphqlContext, 'sadd(ctx.key'), returned(graphqlContext, 'incr(args.key)')] },
    { code: typeField, errors: [returned(typeField, 'incr(args.key)')] },
    // strict reports the caller's keys too
    {
      code: trpc,
      options: [STRICT_KEY_POLICY],
      errors: [
        noExpiry(trpc, 'rpush(key, value)', 'key'),
        returned(trpc, 'sadd(opts.input.key'),
        returned(trpc, 'incr(input)'),
        returned(trpc, 'hset(hash.key'),
        returned(trpc, 'zadd(input.key'),
      ],
    },
    { code: graphqlMap, options: [STRICT_KEY_POLICY], errors: [noExpiry(graphqlMap, 'lpush(key, value)', 'key'), returned(graphqlMap, 'sadd(args.key')] },
    { code: graphqlJs, options: [STRICT_KEY_POLICY], errors: [returned(graphqlJs, 'rpush(args.key')] },
    { code: nestResolver, options: [STRICT_KEY_POLICY], errors: [{ messageId: 'noExpiry', ...at(nestResolver, 'sadd(key'), suggestions: [{ messageId: 'wrapInMulti', output: nestResolver.replace('redis.sadd(key, args.member)', 'redis.multi().sadd(key, args.member).expire(key, TTL_SECONDS).exec()') }] }, returned(nestResolver, 'hset(args.hash')] },
    { code: trpcV9, options: [STRICT_KEY_POLICY], errors: [returned(trpcV9, 'sadd(input.key')] },
  ],
});

runRule(untypedTester, 'set-requires-ttl-or-keepttl (keys named by a remote caller)', setRule, {
  valid: [],
  invalid: [
    // SET without expiry drops the TTL of the key the caller edits: reported, whoever named it
    {
      code: siriusSet,
      errors: [
        {
          messageId: 'setWithoutTtl',
          ...at(siriusSet, 'set(key'),
          suggestions: [
            { messageId: 'addExpiryPlaceholder', output: siriusSet.replace('redis.set(key, value', "redis.set(key, value, 'EX', TTL_SECONDS") },
            { messageId: 'addKeepTtl', output: siriusSet.replace('redis.set(key, value', "redis.set(key, value, 'KEEPTTL'") },
          ],
        },
      ],
    },
  ],
});
