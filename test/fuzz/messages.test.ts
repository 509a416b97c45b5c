// Fuzzes the Messages protocol (see harness.ts for seeds, run counts and replaying a failure).
import { fuzzEndpoints } from './fuzz-gateway.js'

fuzzEndpoints(['messages', 'messages.count_tokens'])
