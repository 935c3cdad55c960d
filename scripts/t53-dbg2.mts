import { mayNameSameKey } from '../redis-calls/database-of-record.ts';
console.log(mayNameSameKey('usage:*', 'usage:daily:*:*'), mayNameSameKey('usage:daily:*:*', 'usage:daily:*:*-*2*0*-*2*0*'), mayNameSameKey('apikey:*', 'apikey:hash_map'), mayNameSameKey('apikey:*', '*:*'), mayNameSameKey('session:*', 'session:*'));
