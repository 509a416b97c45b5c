import type { Plurals } from '../../format'
import type { Strings } from '../../i18n'

type Key =
  | 'title' | 'generate' | 'edit' | 'noGroup' | 'model' | 'loadingModels' | 'noModels' | 'noEditModels'
  | 'size' | 'sizeCustom' | 'sizeCustomPlaceholder' | 'size_format' | 'size_multiple' | 'size_side' | 'size_ratio' | 'size_pixels'
  | 'default' | 'defaultIs' | 'field_image_size' | 'field_resolution' | 'field_aspect_ratio' | 'field_quality' | 'field_output_format'
  | 'n' | 'nMax' | 'delivery_async' | 'delivery_stream' | 'delivery_sync'
  | 'prompt' | 'promptPlaceholder' | 'references' | 'referencesHint' | 'referencesMax'
  | 'firstRef' | 'makeFirst' | 'remove'
  | 'submitGenerate' | 'submitEdit' | 'problem_noPrompt' | 'problem_noReference' | 'problem_badSize' | 'problem_tooMany'
  | 'problem_tooManyReferences'
  | 'status_idle' | 'status_submitting' | 'status_uploading' | 'status_waiting' | 'status_generating' | 'status_saving' | 'status_succeeded'
  | 'status_failed' | 'status_interrupted' | 'elapsed'
  | 'mask' | 'maskNeedsImage' | 'maskUnsupported' | 'brush' | 'eraser' | 'brushSize' | 'opacity' | 'undo' | 'redo'
  | 'clear' | 'invert' | 'zoomIn' | 'zoomOut' | 'fit' | 'maskHint' | 'maskEmpty' | 'maskPainted'
  | 'gallery' | 'noRuns' | 'download' | 'delete' | 'masked' | 'task'
  | 'revisedPrompt' | 'interrupted'
  | 'wand' | 'object' | 'selectAdd' | 'selectSubtract' | 'tolerance' | 'selecting' | 'selectFailed' | 'wandTitle' | 'objectTitle'
  | 'showRaw' | 'compositeStats' | 'compositePending' | 'compositeFailed' | 'feather' | 'featherHint'
  | 'compareLabel' | 'compareValue' | 'before' | 'after' | 'currentRun' | 'noEarlierRuns'

/** The images panel's text. */
export const STRINGS: Strings<Key> = {
  en: {
    title: 'Images', generate: 'Generate', edit: 'Edit', noGroup: 'Choose a group to make images in.',
    model: 'Model', loadingModels: 'Loading models…', noModels: 'This group has no image models.',
    noEditModels: 'No image model of this group can edit images.',
    size: 'Size', sizeCustom: 'Custom…', sizeCustomPlaceholder: 'W x H, e.g. 1200x800',
    size_format: 'Write the size as width x height, e.g. 1200x800.',
    size_multiple: 'Both sides must be multiples of {multipleOf}.', size_side: 'Each side may be at most {maxSide} pixels.',
    size_ratio: 'The sides may differ by at most {minRatio} to {maxRatio}.', size_pixels: 'The size must have {minPixels} to {maxPixels} pixels in all.',
    default: 'Default', defaultIs: 'Default ({value})',
    field_image_size: 'Tier', field_resolution: 'Resolution', field_aspect_ratio: 'Aspect ratio', field_quality: 'Quality',
    field_output_format: 'Format',
    n: 'Images', nMax: 'at most {max}',
    delivery_async: 'runs as a task', delivery_stream: 'streamed', delivery_sync: 'one request',
    prompt: 'Prompt', promptPlaceholder: 'Describe the image (or the change to make)…',
    references: 'Reference images', referencesHint: 'Pick, drop or paste images. The mask is painted on the first one.',
    referencesMax: '{count} of at most {max}',
    firstRef: 'first', makeFirst: 'Make first', remove: 'Remove',
    submitGenerate: 'Generate', submitEdit: 'Edit image',
    problem_noPrompt: 'Write a prompt.', problem_noReference: 'Add the image to edit.', problem_badSize: 'Fix the size first.',
    problem_tooMany: 'Too many images for this model and tier.', problem_tooManyReferences: 'Too many reference images for this model.',
    status_idle: 'Ready.', status_submitting: 'Sending…', status_uploading: 'Uploading the images… {percent}%', status_waiting: 'Task {task}: {status}… {elapsed}',
    status_generating: 'Generating… {elapsed}', status_saving: 'Keeping the images…', status_succeeded: 'Done: {images} in {elapsed}.',
    status_failed: 'Failed after {elapsed}.', status_interrupted: 'Interrupted.', elapsed: '{s} s',
    mask: 'Mask', maskNeedsImage: 'Add a reference image to paint the area to edit.',
    maskUnsupported: 'This model edits the whole image: it takes no mask.',
    brush: 'Brush', eraser: 'Eraser', brushSize: 'Size', opacity: 'Overlay', undo: 'Undo', redo: 'Redo', clear: 'Clear',
    invert: 'Invert', zoomIn: 'Zoom in', zoomOut: 'Zoom out', fit: 'Fit',
    maskHint: 'B brush · E eraser · W magic wand · O select object (click, or drag a box) · A add · S subtract · [ ] size · Ctrl/Cmd+Z undo · Ctrl/Cmd+Shift+Z or Ctrl+Y redo · I invert · 0 fit · Delete clear · wheel zoom · Space+drag or right/middle drag pan',
    maskEmpty: 'Nothing painted: the whole image may change.', maskPainted: 'The painted area is what changes.',
    gallery: 'History', noRuns: 'Generated images appear here.', download: 'Download', delete: 'Delete',
    masked: 'masked', task: 'task {id}',
    revisedPrompt: 'Revised prompt: {text}',
    interrupted: 'The app closed before the answer arrived; send it again.',
    wand: 'Magic wand', object: 'Select object', selectAdd: 'Add', selectSubtract: 'Subtract', tolerance: 'Tolerance',
    selecting: 'Selecting…', selectFailed: 'Could not select the object: {error}',
    wandTitle: 'Magic wand (W): click to select the area of similar colour', objectTitle: 'Select object (O): click inside an object, or drag a box around it',
    showRaw: "Show the model's raw output (otherwise the original is kept outside the mask)",
    compositeStats: 'Outside the mask the model changed {changed} of {outside} pixels; the composite kept {kept} as in the original.',
    compositePending: 'Putting the original back outside the mask…', compositeFailed: 'Could not keep the original outside the mask: {error}',
    compareLabel: 'Drag to compare with the image as sent', compareValue: '{before}% before, {after}% after', before: 'Before', after: 'After',
    currentRun: 'Newest run', noEarlierRuns: 'Earlier runs appear here.',
    feather: 'Edge feather', featherHint: 'Outside the mask the original is kept; this many pixels just inside its edge blend the two (0 = a hard edge).',
  },
  zh: {
    title: '图像', generate: '生成', edit: '编辑', noGroup: '请选择一个分组来生成图像。',
    model: '模型', loadingModels: '正在加载模型…', noModels: '该分组没有图像模型。',
    noEditModels: '该分组没有可以编辑图像的模型。',
    size: '尺寸', sizeCustom: '自定义…', sizeCustomPlaceholder: '宽 x 高，例如 1200x800',
    size_format: '请按“宽 x 高”填写尺寸，例如 1200x800。',
    size_multiple: '两边都必须是 {multipleOf} 的倍数。', size_side: '每边最多 {maxSide} 像素。',
    size_ratio: '宽高比必须在 {minRatio} 到 {maxRatio} 之间。', size_pixels: '总像素数必须在 {minPixels} 到 {maxPixels} 之间。',
    default: '默认', defaultIs: '默认（{value}）',
    field_image_size: '档位', field_resolution: '分辨率', field_aspect_ratio: '宽高比', field_quality: '质量',
    field_output_format: '格式',
    n: '张数', nMax: '最多 {max} 张',
    delivery_async: '以任务运行', delivery_stream: '流式返回', delivery_sync: '单次请求',
    prompt: '提示词', promptPlaceholder: '描述图像（或要做的修改）…',
    references: '参考图', referencesHint: '选择、拖入或粘贴图片。蒙版画在第一张图上。',
    referencesMax: '{count} / 最多 {max}',
    firstRef: '第一张', makeFirst: '设为第一张', remove: '移除',
    submitGenerate: '生成', submitEdit: '编辑图像',
    problem_noPrompt: '请填写提示词。', problem_noReference: '请添加要编辑的图片。', problem_badSize: '请先修正尺寸。',
    problem_tooMany: '该模型在此档位下不能生成这么多张。', problem_tooManyReferences: '参考图数量超过该模型的上限。',
    status_idle: '就绪。', status_submitting: '正在发送…', status_uploading: '正在上传图像… {percent}%', status_waiting: '任务 {task}：{status}… {elapsed}',
    status_generating: '正在生成… {elapsed}', status_saving: '正在保存图像…', status_succeeded: '完成：{images}，用时 {elapsed}。',
    status_failed: '{elapsed} 后失败。', status_interrupted: '已中断。', elapsed: '{s} 秒',
    mask: '蒙版', maskNeedsImage: '添加参考图后即可涂抹要编辑的区域。',
    maskUnsupported: '该模型编辑整张图像，不接受蒙版。',
    brush: '画笔', eraser: '橡皮', brushSize: '大小', opacity: '叠加层', undo: '撤销', redo: '重做', clear: '清除',
    invert: '反选', zoomIn: '放大', zoomOut: '缩小', fit: '适应',
    maskHint: 'B 画笔 · E 橡皮 · W 魔棒 · O 选择物体（单击，或拖出方框） · A 添加 · S 减去 · [ ] 大小 · Ctrl/Cmd+Z 撤销 · Ctrl/Cmd+Shift+Z 或 Ctrl+Y 重做 · I 反选 · 0 适应 · Delete 清除 · 滚轮缩放 · 空格+拖动或右键/中键拖动平移',
    maskEmpty: '尚未涂抹：整张图都可能改变。', maskPainted: '涂抹的区域就是要修改的部分。',
    gallery: '历史', noRuns: '生成的图像会显示在这里。', download: '下载', delete: '删除',
    masked: '带蒙版', task: '任务 {id}',
    revisedPrompt: '改写后的提示词：{text}',
    interrupted: '应用在收到结果前关闭了，请重新发送。',
    wand: '魔棒', object: '选择物体', selectAdd: '添加', selectSubtract: '减去', tolerance: '容差',
    selecting: '正在选择…', selectFailed: '无法选择该物体：{error}',
    wandTitle: '魔棒（W）：单击选择颜色相近的区域', objectTitle: '选择物体（O）：在物体内单击，或拖出方框框住它',
    showRaw: '显示模型的原始输出（否则蒙版外保留原图）',
    compositeStats: '蒙版外模型改动了 {outside} 个像素中的 {changed} 个；合成图按原图保留了 {kept} 个。',
    compositePending: '正在把蒙版外恢复为原图…', compositeFailed: '无法在蒙版外保留原图：{error}',
    compareLabel: '拖动滑块，与发送时的图像对比', compareValue: '修改前 {before}%，修改后 {after}%', before: '修改前', after: '修改后',
    currentRun: '最新一次', noEarlierRuns: '更早的记录会显示在这里。',
    feather: '边缘羽化', featherHint: '蒙版外保留原图；蒙版边缘内侧这么多像素会把两者平滑过渡（0 = 硬边）。',
  },
}

/** `t` as `useT(STRINGS)` returns it, for helpers that take it from their component. */
export type ImageT = (key: Key, vars?: Record<string, string | number>) => string

/** Counted phrases, in each language's plural forms (`useCount(PLURALS)`). */
export const PLURALS: Plurals<'images' | 'references'> = {
  en: { images: { one: '{n} image', other: '{n} images' }, references: { one: '{n} reference', other: '{n} references' } },
  zh: { images: { other: '{n} 张图像' }, references: { other: '{n} 张参考图' } },
}

/** `count` as `useCount(PLURALS)` returns it. */
export type ImageCount = (key: 'images' | 'references', n: number) => string
