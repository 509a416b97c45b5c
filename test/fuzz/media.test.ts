// Fuzzes the image and video endpoints, DashScope's native path included (see harness.ts for seeds and replaying).
import { fuzzEndpoints } from './fuzz-gateway.js'

fuzzEndpoints(['images.generations', 'images.edits', 'video.generate', 'video.native'])
