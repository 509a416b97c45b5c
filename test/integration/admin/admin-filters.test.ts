// Every numeric filter of the admin listings has a range, and text filters hold no U+0000: a value past them is a
// 400 naming the field on both stores (PostgreSQL fails a statement with a number past BIGINT, or text with U+0000,
// and answered 500), while the bounds themselves are served.
import { beforeAll, describe, expect, it } from 'vitest'
import { chatConfig, withGateway } from '../../helpers/gateway.js'
import { adminClient, apiError } from './admin-helpers.js'

const { gw } = withGateway({ config: () => chatConfig([]) })
const admin = adminClient(gw)

beforeAll(async () => {
  // A row in the log, so that the filters have something to pass over.
  expect((await gw.get('/v1/models')).status).toBe(200)
})

const AFTER_DATE_RANGE = 'must be at most 8640000000000000 milliseconds since 1970'
const NOT_A_CURSOR = 'must be the `next` value of a previous page'
const NO_NUL = 'must not contain the character U+0000'
const STATUS_RANGE = 'must be an HTTP status code from 100 to 599'
const LIMIT_RANGE = 'must be an integer from 1 to 500'
const DAY_RANGE = 'must be a date from 1970-01-01 to 9999-12-31'

describe('GET /admin/v1/requests, /tasks and /usage/summary: each filter at its bound is served, past it 400 naming it', () => {
  it.each([
    ['/admin/v1/requests', 'since', 'since=8640000000000000', 'since=8640000000000001', AFTER_DATE_RANGE],
    ['/admin/v1/requests', 'since', 'since=2026-01-01T00:00:00Z', 'since=9223372036854775808', AFTER_DATE_RANGE],
    ['/admin/v1/requests', 'until', 'until=0', 'until=99999999999999999999', AFTER_DATE_RANGE],
    ['/admin/v1/requests', 'before', 'before=8640000000000000:req_x', 'before=99999999999999999999:req_x', NOT_A_CURSOR],
    ['/admin/v1/requests', 'before', 'before=1:req_x', 'before=1:req_%00', NO_NUL],
    ['/admin/v1/requests', 'status', 'status=100', 'status=099', STATUS_RANGE],
    ['/admin/v1/requests', 'status', 'status=599', 'status=600', STATUS_RANGE],
    ['/admin/v1/requests', 'limit', 'limit=500', 'limit=1e2', LIMIT_RANGE],
    ['/admin/v1/requests', 'limit', 'limit=1', 'limit=0x10', LIMIT_RANGE],
    ['/admin/v1/requests', 'id', 'id=req_x', 'id=req_%00', NO_NUL],
    ['/admin/v1/requests', 'group', 'group=main', 'group=main%00', NO_NUL],
    ['/admin/v1/requests', 'key', 'key=key_x', 'key=%00', NO_NUL],
    ['/admin/v1/requests', 'model', 'model=test-gpt', 'model=test%00gpt', NO_NUL],
    ['/admin/v1/requests', 'endpoint', 'endpoint=models.list', 'endpoint=models.list%00', NO_NUL],
    ['/admin/v1/tasks', 'limit', 'limit=500', 'limit=0x10', LIMIT_RANGE],
    ['/admin/v1/usage/summary', 'since', 'since=1970-01-01&until=1970-01-31', 'since=1969-12-31&until=1970-01-30', DAY_RANGE],
    ['/admin/v1/usage/summary', 'until', 'since=9999-12-01&until=9999-12-31', 'since=0099-12-01&until=0099-12-31', DAY_RANGE],
  ])('%s %s: %s served, %s refused', async (path, field, accepted, refused, problem) => {
    expect((await admin.get(`${path}?${accepted}`)).status).toBe(200)
    const res = await admin.get(`${path}?${refused}`)
    expect(res.status).toBe(400)
    expect(res.json).toEqual(apiError('invalid_request', `Query parameter ${field}: ${problem}`, field))
  })

  it('in Chinese for Accept-Language zh', async () => {
    const res = await fetch(`${gw.url}/admin/v1/requests?status=600`, { headers: { authorization: `Bearer ${gw.adminToken}`, 'accept-language': 'zh-CN' } })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual(apiError('invalid_request', '查询参数 status：必须是 100 到 599 之间的 HTTP 状态码', 'status'))
  })
})
