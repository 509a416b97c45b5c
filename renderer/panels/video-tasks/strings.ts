import type { Strings } from '../../i18n'

type Key =
  | 'title' | 'noGroup' | 'model' | 'loadingModels' | 'noModels' | 'prompt' | 'promptPlaceholder'
  | 'image' | 'lastFrame' | 'removeImage' | 'role_first_frame' | 'role_reference' | 'role_last_frame' | 'imageRole'
  | 'duration' | 'resolution' | 'aspectRatio' | 'modelDefault' | 'seconds' | 'durationFree' | 'aspectFree'
  | 'submit' | 'submitting'
  | 'problem_noModel' | 'problem_unsupported' | 'problem_noInput' | 'problem_imageRequired'
  | 'tasks' | 'refresh' | 'noTasks'
  | 'status_queued' | 'status_running' | 'status_succeeded' | 'status_failed' | 'status_canceled'
  | 'status_submitting' | 'status_submit_failed' | 'status_interrupted'
  | 'interruptedHelp' | 'retry' | 'retrySameKey' | 'retryNewKey' | 'retried' | 'dismiss' | 'save' | 'loadingVideo'
  | 'delete' | 'confirmDelete'
  | 'cost' | 'pollError' | 'listError' | 'keepImagesError' | 'noPrompt'

/** The video panel's text. */
export const STRINGS: Strings<Key> = {
  en: {
    title: 'Video', noGroup: 'Choose a group to make videos in.', model: 'Model', loadingModels: 'Loading models…',
    noModels: 'This group has no video models.', prompt: 'Prompt', promptPlaceholder: 'Describe the video (paste or drop a picture to start from it)',
    image: 'Picture', lastFrame: 'Last frame', removeImage: 'Remove',
    role_first_frame: 'First frame', role_reference: 'Reference', role_last_frame: 'Last frame', imageRole: 'Use as',
    duration: 'Duration', resolution: 'Resolution', aspectRatio: 'Aspect ratio', modelDefault: 'Model default', seconds: '{n} s',
    durationFree: 'seconds (model default when empty)', aspectFree: 'W:H (model default when empty)',
    submit: 'Generate', submitting: 'Submitting…',
    problem_noModel: 'Choose a model.', problem_unsupported: 'This model cannot be used from this form.',
    problem_noInput: 'Write a prompt or add a picture.', problem_imageRequired: 'This model starts from a picture: add one.',
    tasks: 'Tasks', refresh: 'Refresh', noTasks: 'No video tasks yet.',
    status_queued: 'Queued', status_running: 'Running', status_succeeded: 'Done', status_failed: 'Failed', status_canceled: 'Canceled',
    status_submitting: 'Submitting', status_submit_failed: 'Not submitted', status_interrupted: 'Interrupted',
    interruptedHelp: 'The app stopped while this was being sent. Retrying is safe: if the gateway got it, its task is answered instead of a new one.',
    retry: 'Retry', retrySameKey: 'Sends the same submission again (same Idempotency-Key): never a second task.',
    retryNewKey: 'Submits the same request again as a new task.', retried: 'retried', dismiss: 'Dismiss', save: 'Save',
    delete: 'Delete', confirmDelete: 'Delete this task and the video kept for it? Its cost stays in Usage.',
    loadingVideo: 'Loading the video…',
    cost: '{cost} for {seconds} s', pollError: 'Could not update the tasks:', listError: 'Could not load the tasks:',
    keepImagesError: 'The pictures of this task could not be kept for a retry:', noPrompt: '(no prompt)',
  },
  zh: {
    title: '视频', noGroup: '请选择要生成视频的分组。', model: '模型', loadingModels: '正在加载模型…',
    noModels: '此分组没有视频模型。', prompt: '提示词', promptPlaceholder: '描述视频内容（可粘贴或拖入图片作为起点）',
    image: '图片', lastFrame: '尾帧', removeImage: '移除',
    role_first_frame: '首帧', role_reference: '参考图', role_last_frame: '尾帧', imageRole: '用作',
    duration: '时长', resolution: '分辨率', aspectRatio: '宽高比', modelDefault: '模型默认', seconds: '{n} 秒',
    durationFree: '秒（留空为模型默认）', aspectFree: '宽:高（留空为模型默认）',
    submit: '生成', submitting: '正在提交…',
    problem_noModel: '请选择模型。', problem_unsupported: '此模型无法通过此表单使用。',
    problem_noInput: '请填写提示词或添加图片。', problem_imageRequired: '此模型需要从图片开始：请添加图片。',
    tasks: '任务', refresh: '刷新', noTasks: '还没有视频任务。',
    status_queued: '排队中', status_running: '生成中', status_succeeded: '已完成', status_failed: '失败', status_canceled: '已取消',
    status_submitting: '正在提交', status_submit_failed: '未提交', status_interrupted: '已中断',
    interruptedHelp: '发送时应用已停止。重试是安全的：如果网关已收到，将返回原任务而不会新建。',
    retry: '重试', retrySameKey: '再次发送同一提交（相同的 Idempotency-Key）：不会产生第二个任务。',
    retryNewKey: '以新任务再次提交相同的请求。', retried: '已重试', dismiss: '忽略', save: '保存',
    delete: '删除', confirmDelete: '删除此任务及为它保存的视频吗？其费用仍保留在“用量”中。',
    loadingVideo: '正在加载视频…',
    cost: '{cost}，{seconds} 秒', pollError: '无法更新任务：', listError: '无法加载任务：',
    keepImagesError: '此任务的图片无法保留以供重试：', noPrompt: '（无提示词）',
  },
}

/** `t` as `useT(STRINGS)` returns it. */
export type VideoT = (key: Key, vars?: Record<string, string | number>) => string
