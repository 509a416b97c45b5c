// Fuzzes the chat-protocol relays (see harness.ts for seeds, run counts and replaying a failure).
import { fuzzEndpoints } from './fuzz-gateway.js'

fuzzEndpoints(['chat.completions', 'responses', 'audio.speech', 'interactions'])
