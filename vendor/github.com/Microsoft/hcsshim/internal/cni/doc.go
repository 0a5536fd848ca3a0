package cni
