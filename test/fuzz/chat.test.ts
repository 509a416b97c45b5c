// Fuzzes the chat-protocol relays (see harness.ts for seeds, budgets and replaying a failure).
import { fuzzEndpoints } from './fuzz-gateway.js'

fuzzEndpoints(['chat.completions', 'responses', 'audio.speech', 'interactions'], 4_000)
