import type { Strings } from '../../i18n'

/** The mask canvas's name and its keyboard help, in every language. */
export const MASK_KEYBOARD_STRINGS: Strings<'maskCanvasLabel' | 'maskKeyboardHint'> = {
  en: {
    maskCanvasLabel: 'Mask: the area to edit',
    maskKeyboardHint: 'Keyboard: focus the image, move the cursor with the arrow keys (Shift: bigger steps), Space paints a dab or selects there, Enter puts the brush down to draw with the arrows and lifts it, Escape lifts it.',
  },
  zh: {
    maskCanvasLabel: '蒙版：要编辑的区域',
    maskKeyboardHint: '键盘操作：聚焦图像后用方向键移动光标（按住 Shift 移动更多），空格在光标处涂一笔或在此处选择，回车落笔后用方向键绘制、再按回车抬笔，Esc 抬笔。',
  },
}
