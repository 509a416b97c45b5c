/**
 * A uPlot chart that follows its box's width. uPlot (1.6) draws time series on a canvas, is small (~50 KB) and
 * fast with thousands of points, and needs no framework adapter, which is why the usage charts use it.
 */
import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

export function UPlotChart({ options, data, height = 220, testId }: {
  options: Omit<uPlot.Options, 'width' | 'height'>
  data: uPlot.AlignedData
  height?: number
  testId?: string
}) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current!
    const chart = new uPlot({ ...options, width: el.clientWidth, height }, data, el)
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height }))
    resize.observe(el)
    return () => {
      resize.disconnect()
      chart.destroy()
    }
  }, [options, data, height])
  // The canvas is drawn for sighted users; each chart has a table of the same figures beside it.
  return <div ref={box} className="usage-chart" aria-hidden="true" data-testid={testId} />
}

/** Colours of the series, in stack order; the summed rest is grey. */
export const PALETTE = ['#2b6cb0', '#dd6b20', '#2f855a', '#b83280', '#6b46c1', '#c05621', '#2c7a7b', '#d69e2e', '#805ad5', '#e53e3e']
export const OTHER_COLOUR = '#a0aec0'

/** A CSS variable's colour, for canvas drawing (which cannot read variables). */
export const cssColour = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#667085'
