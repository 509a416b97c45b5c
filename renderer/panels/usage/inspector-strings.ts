import type { Strings } from '../../i18n'

type Key =
  | 'inspect' | 'hide' | 'notKept' | 'request' | 'answer' | 'headers' | 'body' | 'events' | 'timings' | 'queue' | 'firstByte'
  | 'firstToken' | 'total' | 'notMeasured' | 'usageSource' | 'stripped' | 'omitted' | 'truncated' | 'raw'
  | 'replay' | 'replayAccount' | 'replayModel' | 'sameAccount' | 'sameModel' | 'replaySend' | 'original' | 'replayed'
  | 'latency' | 'tokens' | 'cost' | 'diff' | 'quoted' | 'replayOf'

/** The request inspector's text (Usage → a row → Inspect). */
export const INSPECT_STRINGS: Strings<Key> = {
  en: {
    inspect: 'Inspect', hide: 'Hide the inspector', notKept: 'No body was kept for this request. Turn on "Keep request and answer bodies" in Settings to keep the next ones.',
    request: 'Request as sent', answer: 'Answer as delivered', headers: 'Headers', body: 'Body', events: 'Events ({n})', timings: 'Timings',
    queue: 'Queue', firstByte: 'First byte', firstToken: 'First token', total: 'Total', notMeasured: 'not measured',
    usageSource: 'Usage from', stripped: '{type}, {bytes} bytes, SHA-256 {hash}… (not kept)', omitted: 'Not kept ({why}): {type}, {bytes} bytes',
    truncated: 'The answer was longer than what is kept: the rest is left out.', raw: 'Raw JSON',
    replay: 'Replay', replayAccount: 'Account', replayModel: 'Model', sameAccount: 'any account (failover order)', sameModel: 'the same model',
    replaySend: 'Replay (billed)', original: 'Original', replayed: 'Replay', latency: 'Latency', tokens: 'Tokens in / out', cost: 'Cost',
    diff: 'Differences in the text', quoted: 'quoted {expected}', replayOf: 'Replay of {id}',
  },
  zh: {
    inspect: '检查', hide: '收起检查器', notKept: '这个请求没有保存内容。在设置中打开“保留请求与回答内容”后，之后的请求会被保存。',
    request: '发送的请求', answer: '送达的回答', headers: '请求头', body: '内容', events: '事件（{n}）', timings: '耗时',
    queue: '排队', firstByte: '首字节', firstToken: '首个词元', total: '总计', notMeasured: '未测量',
    usageSource: '用量来源', stripped: '{type}，{bytes} 字节，SHA-256 {hash}…（未保存）', omitted: '未保存（{why}）：{type}，{bytes} 字节',
    truncated: '回答超出了保存的上限：其余部分未保存。', raw: '原始 JSON',
    replay: '重放', replayAccount: '账户', replayModel: '模型', sameAccount: '任意账户（按故障转移顺序）', sameModel: '相同模型',
    replaySend: '重放（计费）', original: '原请求', replayed: '重放', latency: '延迟', tokens: '输入 / 输出词元', cost: '费用',
    diff: '文本差异', quoted: '报价 {expected}', replayOf: '重放自 {id}',
  },
}

export type InspectT = (key: Key, vars?: Record<string, string | number>) => string
